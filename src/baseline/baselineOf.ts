import type { Config } from '../config/types.js';
import type { RunResult, SampleResult } from '../probe/probeTypes.js';
import {
  BASELINE_FORMAT,
  BASELINE_FORMAT_VERSION,
  MAX_OUTPUT_TOKENS,
  type Baseline,
  type Fingerprint,
  type LatencyFigures,
  type PairFigures,
  type SampleOutput,
} from './baselineFormat.js';
import { outputTokens } from './outputTokens.js';
import { probeSettings } from './probeSettings.js';
import { selfDeparture } from './selfDeparture.js';

export interface BaselineMeta {
  version: string;
  /** ISO time of the run. */
  createdAt: string;
  /** By target name: what each target said about itself (runFingerprint joined with fingerprintFields). */
  fingerprints: Record<string, Fingerprint>;
}

/** The median of the finite numbers, null when there are none. */
export function median(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  return xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}

/** Mean seconds between output tokens after the first (TPOT): null below two tokens or without a first-token time. */
export function interTokenSeconds(s: Pick<SampleResult, 'ttftSeconds' | 'durationSeconds' | 'outputTokens'>): number | null {
  if (s.ttftSeconds === null || s.outputTokens < 2) return null;
  return Math.max(0, s.durationSeconds - s.ttftSeconds) / (s.outputTokens - 1);
}

function latencyOf(samples: readonly SampleResult[]): LatencyFigures {
  const answered = samples.filter((s) => s.verdict !== 'error');
  return {
    ttftSeconds: median(answered.map((s) => s.ttftSeconds)),
    itlSeconds: median(answered.map(interTokenSeconds)),
    tokensPerSecond: median(answered.map((s) => s.tokensPerSecond)),
  };
}

/**
 * Outputs worth comparing token by token: sampled at temperature 0 (and sent so) with a fixed
 * seed. Not a contamination probe's: its prompts take the run id, so no two runs ask the same.
 */
function outputsOf(samples: readonly SampleResult[], seed: number | null, kind: string): SampleOutput[] {
  if (seed === null || kind === 'contamination') return [];
  return samples
    .filter((s) => s.temperature === 0 && s.temperatureSent !== false && s.verdict !== 'error' && s.outcome?.kind !== 'conformance')
    .map((s) => {
      const { tokens, total } = outputTokens(s.content, MAX_OUTPUT_TOKENS);
      return { sample: s.index, temperature: 0, seed, tokens, totalTokens: total, truncated: total > tokens.length };
    });
}

/** The figures of one run, as a baseline keeps them; `repeats`: the same pair run again, for its self-departure. */
export function pairFigures(run: RunResult, config: Config, repeats: readonly RunResult[] = []): PairFigures {
  const probe = config.probes.find((p) => p.name === run.probe);
  if (!probe) throw new Error(`pairFigures: probe ${run.probe} is not in the config`);
  const settings = probeSettings(probe);
  const samples = [...run.samples].sort((a, b) => a.index - b.index);
  const onsets = samples.filter((s) => s.verdict === 'fail' && s.onsetToken !== null).map((s) => s.onsetToken as number);
  const recalls = samples.flatMap((s) => (s.outcome?.kind === 'recall' ? [s.outcome.ratio] : []));
  const checks = samples.flatMap((s) => (s.outcome?.kind === 'conformance' ? s.outcome.checks : []));
  const outputs = outputsOf(samples, settings.seed, settings.kind);
  const self = outputs.length
    ? selfDeparture(
        outputs,
        repeats.map((r) => outputsOf(r.samples, settings.seed, settings.kind)),
      )
    : undefined;
  return {
    target: run.target,
    probe: run.probe,
    settings,
    // a run that ended before any sample (a key that cannot be read) is one error
    verdicts: samples.length ? samples.map((s) => s.verdict) : [run.verdict],
    onsetToken: onsets.length ? Math.min(...onsets) : null,
    recall: recalls.length ? recalls.reduce((a, b) => a + b, 0) / recalls.length : null,
    conformance: settings.kind === 'conformance' ? Object.fromEntries(checks.map((c) => [c.check, c.status])) : null,
    latency: latencyOf(samples),
    outputs,
    ...(self ? { selfDeparture: self } : {}),
  };
}

/**
 * A baseline of the runs of a one-shot probe (pure: the version, time and fingerprints are
 * passed in). `repeats`: further runs of the same requests (--repeat), each a list of runs; a
 * pair's are matched by target and probe.
 */
export function baselineOf(
  runs: readonly RunResult[],
  config: Config,
  meta: BaselineMeta,
  repeats: readonly (readonly RunResult[])[] = [],
): Baseline {
  return {
    format: BASELINE_FORMAT,
    formatVersion: BASELINE_FORMAT_VERSION,
    tool: { name: 'coherency-exporter', version: meta.version },
    createdAt: meta.createdAt,
    fingerprints: meta.fingerprints,
    pairs: runs.map((r) =>
      pairFigures(
        r,
        config,
        repeats.flatMap((rs) => rs.filter((x) => x.target === r.target && x.probe === r.probe)),
      ),
    ),
  };
}
