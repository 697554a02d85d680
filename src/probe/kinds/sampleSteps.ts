import type { Logger } from 'pino';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import { crashedSample } from '../judgeSample.js';
import { worstVerdict, type RunResult, type SampleFinding, type SampleResult } from '../probeTypes.js';
import type { ProbeDeps } from '../probeDeps.js';

/**
 * The steps every kind other than generation takes around a sample, in the generation probe's
 * order: wait for a slot of server.maxConcurrentSamples, tell the observer, run, give the slot
 * back; then (once the kind has judged the sample) tell the observer and log it.
 */

/** What every kind opens a run with: its start time, its id and a logger that names it. */
export function beginRun(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps): { startedMs: number; id: string; log: Logger } {
  const startedMs = deps.now();
  const id = deps.newId();
  return { startedMs, id, log: deps.logger.child({ target: target.name, probe: probe.name, run: id }) };
}

/** Takes a slot and reports the sample started; null when the daemon shut down meanwhile (send nothing). */
export async function startSample(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, index: number): Promise<(() => void) | null> {
  if (deps.signal?.aborted) return null;
  let release: () => void = () => {};
  if (deps.slots) {
    release = await deps.slots.acquire();
    if (deps.signal?.aborted) {
      release();
      return null;
    }
  }
  deps.observer?.sampleStarted?.(target.name, probe.name, index);
  return release;
}

/** Runs one sample; a bug of ours becomes an `internal` error sample, as in the generation probe. */
export async function guarded(index: number, log: Logger, run: () => Promise<SampleResult>): Promise<SampleResult> {
  try {
    return await run();
  } catch (err) {
    log.error({ err }, 'sample crashed');
    return crashedSample(index, err);
  }
}

/** Reports a judged sample to the observer (metrics) and logs it at the level its verdict deserves. */
export function finishSample(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, log: Logger, sample: SampleResult): void {
  deps.observer?.sampleFinished?.(target.name, probe.name, sample);
  const level = sample.verdict === 'error' ? 'error' : sample.verdict === 'fail' ? 'warn' : 'info';
  log[level](
    {
      sample: sample.index,
      verdict: sample.verdict,
      reasons: sample.reasons,
      findings: sample.findings.map((f) => ({ kind: f.kind, severity: f.severity, channel: f.channel })),
      outputTokens: sample.outputTokens,
      durationSeconds: Math.round(sample.durationSeconds * 1000) / 1000,
      error: sample.error?.type,
    },
    'sample finished',
  );
}

/** Adds a sample-level finding (and its reason line) and raises the verdict to the finding's severity. */
export function addFinding(
  sample: SampleResult,
  finding: Omit<SampleFinding, 'channel' | 'certain' | 'atToken' | 'excerpt'> & { excerpt?: string },
): void {
  sample.findings.push({ certain: false, atToken: -1, excerpt: '', ...finding, channel: 'sample' });
  sample.reasons.push(`${finding.kind}: ${finding.detail}`);
  if (sample.verdict !== 'error') sample.verdict = worstVerdict([sample.verdict, finding.severity]);
}

/** Up to 80 chars of the text from `at`, whitespace flattened (as analyzer findings show). */
export function excerptAt(text: string, at: number): string {
  return at < 0 ? '' : text.slice(at, at + 80).replace(/\s+/g, ' ');
}

export function runResult(
  id: string,
  target: TargetConfig,
  probe: ProbeConfig,
  trigger: RunResult['trigger'],
  startedMs: number,
  deps: ProbeDeps,
  samples: SampleResult[],
): RunResult {
  return {
    id,
    target: target.name,
    probe: probe.name,
    verdict: samples.length ? worstVerdict(samples.map((s) => s.verdict)) : 'error',
    trigger,
    startedAt: new Date(startedMs).toISOString(),
    durationSeconds: (deps.now() - startedMs) / 1000,
    samples,
  };
}
