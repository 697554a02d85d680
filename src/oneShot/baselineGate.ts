import { readBaselineFile, saveProblem, writeBaselineFile } from '../baseline/baselineFile.js';
import type { Baseline } from '../baseline/baselineFormat.js';
import { baselineMismatch } from '../baseline/baselineMismatch.js';
import { baselineOf } from '../baseline/baselineOf.js';
import { compareBaselines, type Comparison } from '../baseline/compareBaselines.js';
import { probeSettings } from '../baseline/probeSettings.js';
import { fingerprintFields, joinFingerprints } from '../baseline/fingerprintFields.js';
import { runFingerprint } from '../baseline/runFingerprint.js';
import { TOLERANCE_FLAGS, tolerancesFromFlags, type Tolerances } from '../baseline/tolerances.js';
import type { Config } from '../config/types.js';
import type { RunResult } from '../probe/probeTypes.js';
import { VERSION } from '../version.js';
import { EXIT } from '../cli/exitCodes.js';
import type { FailOn } from './exitCode.js';
import type { TargetIdentity } from './identifyTargets.js';
import type { ProbeFlagValues, ProbePair } from './probeFlags.js';

/** What --baseline and --save-baseline ask of a probe run, checked before it starts. */
export interface BaselinePlan {
  /** The baseline to compare with (--baseline), read and matched to the selected pairs. */
  baseline: Baseline | null;
  tolerances: Tolerances;
  /** Where to write this run's baseline (--save-baseline). */
  savePath: string | null;
  /** Runs of the pairs of `repeatPairs` for a saved baseline (--repeat), the first included; 1: no repeat. */
  repeats: number;
  /** The pairs whose outputs a baseline keeps (temperature 0 with a seed): the ones repeated. */
  repeatPairs: ProbePair[];
}

/** Largest --repeat: each run costs the probes' tokens again. */
export const MAX_REPEAT = 10;

/** The pairs whose outputs at temperature 0 with a seed a baseline keeps (baselineOf's outputsOf, from the config). */
export function comparablePairs(config: Config, pairs: readonly ProbePair[]): ProbePair[] {
  return pairs.filter((p) => {
    const s = probeSettings(config.probes.find((c) => c.name === p.probe)!);
    const atZero = s.temperatures === null ? s.temperature === 0 : s.temperatures.split(',').map(Number).includes(0);
    return s.seed !== null && atZero && s.kind !== 'contamination' && s.kind !== 'conformance';
  });
}

/**
 * Reads the baseline flags: the tolerances, the file to compare with (refused when it is
 * unreadable, of another format or tool version, or of other pairs or probe settings), and
 * where a new one goes. null: neither flag given. A string: the usage error (exit 2).
 */
export async function planBaseline(
  values: ProbeFlagValues,
  config: Config,
  pairs: readonly ProbePair[],
): Promise<BaselinePlan | null | string> {
  const from = typeof values['baseline'] === 'string' ? values['baseline'] : null;
  const savePath = typeof values['save-baseline'] === 'string' ? values['save-baseline'] : null;
  const given = TOLERANCE_FLAGS.filter((f) => values[f] !== undefined);
  if (from === null && given.length) return `${given.map((f) => `--${f}`).join(', ')}: goes with --baseline FILE`;
  const repeatFlag = values['repeat'];
  if (repeatFlag !== undefined && savePath === null) return '--repeat: goes with --save-baseline FILE';
  if (from === null && savePath === null) return null;
  const repeatPairs = savePath === null ? [] : comparablePairs(config, pairs);
  // two runs by default: an unchanged build's own spread costs the temperature-0 requests once more
  let repeats = repeatPairs.length ? 2 : 1;
  if (repeatFlag !== undefined) {
    const text = String(repeatFlag).trim();
    repeats = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
    if (!(repeats >= 1 && repeats <= MAX_REPEAT)) return `--repeat: an integer from 1 to ${MAX_REPEAT}, got "${text.slice(0, 40)}"`;
    if (repeats > 1 && !repeatPairs.length)
      return '--repeat: no selected probe keeps its outputs (temperature 0 with a seed: --temperature 0 --seed N, or extraBody.seed)';
  }
  const tolerances = tolerancesFromFlags(values);
  if (!tolerances.ok) return tolerances.errors.join('; ');
  if (savePath !== null) {
    const problem = await saveProblem(savePath);
    if (problem) return `--save-baseline ${savePath}: ${problem}`;
  }
  let baseline: Baseline | null = null;
  if (from !== null) {
    const read = await readBaselineFile(from);
    if (!read.ok) return `--baseline ${from}: ${read.error}`;
    const planned = pairs.map((p) => ({ ...p, settings: probeSettings(config.probes.find((c) => c.name === p.probe)!) }));
    const problems = baselineMismatch(read.baseline, VERSION, planned);
    if (problems.length) return `--baseline ${from}: refused: ${problems.join('; ')}`;
    baseline = read.baseline;
  }
  return { baseline, tolerances: tolerances.tolerances, savePath, repeats, repeatPairs };
}

/**
 * This run as a baseline: its figures, and per target what the run saw it say of itself
 * (runFingerprint) joined with its fingerprint read after the run (`identities`, runOneShot);
 * `repeats`, the further runs of --repeat, give each pair's self-departure.
 */
export function baselineOfRuns(
  runs: readonly RunResult[],
  identities: ReadonlyMap<string, TargetIdentity>,
  config: Config,
  now: Date,
  repeats: readonly (readonly RunResult[])[] = [],
): Baseline {
  const fingerprints = Object.fromEntries(
    [...new Set(runs.map((r) => r.target))].map((name) => {
      const target = config.targets.find((t) => t.name === name)!;
      const seen = runFingerprint(
        target,
        runs.filter((r) => r.target === name),
      );
      const identity = identities.get(name);
      return [name, joinFingerprints(seen, identity && fingerprintFields(identity.fingerprint, identity.secrets))];
    }),
  );
  return baselineOf(runs, config, { version: VERSION, createdAt: now.toISOString(), fingerprints }, repeats);
}

/** The exit status of a gated run: 1 regressed, 3 more errors than the baseline (nothing to judge), else 0. */
export function gateExitCode(c: Comparison): number {
  if (c.regressed) return EXIT.FAILED;
  return c.errorsRose ? EXIT.TARGET_ERROR : EXIT.OK;
}

/** Compares and saves as planned; `saveError` says why the new baseline could not be written. */
export async function finishBaseline(
  plan: BaselinePlan,
  runs: readonly RunResult[],
  identities: ReadonlyMap<string, TargetIdentity>,
  config: Config,
  failOn: FailOn,
  now: Date,
  repeats: readonly (readonly RunResult[])[] = [],
): Promise<{ comparison: Comparison | null; saveError: string | null }> {
  const current = baselineOfRuns(runs, identities, config, now, repeats);
  const comparison = plan.baseline ? compareBaselines(plan.baseline, current, plan.tolerances, failOn) : null;
  let saveError: string | null = null;
  if (plan.savePath !== null) {
    try {
      await writeBaselineFile(plan.savePath, current);
    } catch (err) {
      saveError = `--save-baseline ${plan.savePath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
  }
  return { comparison, saveError };
}
