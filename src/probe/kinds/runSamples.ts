import type { Logger } from 'pino';
import type { ProbeConfig, TargetConfig } from '../../config/types.js';
import { crashedSample } from '../judgeSample.js';
import { worstVerdict, type RunResult, type SampleResult } from '../probeTypes.js';
import type { ProbeDeps } from '../probeDeps.js';

/**
 * What every kind does around its samples, in one place: the run's start time, id and logger;
 * for each sample a slot of server.maxConcurrentSamples, the observer told, a bug of ours turned
 * into an `internal` error sample, the slot given back; once the kind has judged the sample, the
 * observer told and a log line at the level its verdict deserves; last, the run's result. A kind
 * says only which samples it sends and how it judges them (the body).
 */

/** What a kind's body is given: the run's id and logger, and the steps around each sample. */
export interface SampleRun {
  id: string;
  log: Logger;
  /**
   * Runs sample `index` in a slot: null when the daemon shut down before it was sent (nothing
   * was sent; the kind sends no more). Several may run at once (a contamination round).
   */
  sample(index: number, run: () => Promise<SampleResult>): Promise<SampleResult | null>;
  /** Takes a judged sample into the run, in the order of the call: tells the observer (metrics) and logs it. */
  finish(sample: SampleResult): void;
}

/** Runs a kind's body with the run's steps around it. Never throws for a sample: a crashed one is an `error` sample. */
export async function runSamples(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'],
  body: (run: SampleRun) => Promise<void>,
): Promise<RunResult> {
  const startedMs = deps.now();
  const id = deps.newId();
  const log = deps.logger.child({ target: target.name, probe: probe.name, run: id });
  const samples: SampleResult[] = [];
  await body({
    id,
    log,
    sample: async (index, run) => {
      const release = await takeSlot(deps);
      if (!release) return null;
      deps.observer?.sampleStarted?.(target.name, probe.name, index);
      try {
        return await run();
      } catch (err) {
        // A bug in our own code must not take the scheduler down; report it as an error sample.
        log.error({ err }, 'sample crashed');
        return crashedSample(index, err);
      } finally {
        release();
      }
    },
    finish: (sample) => {
      deps.observer?.sampleFinished?.(target.name, probe.name, sample);
      logSample(log, probe, sample);
      samples.push(sample);
    },
  });
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

/** A slot's release; null when the daemon shut down before or while waiting for one (send nothing). */
async function takeSlot(deps: ProbeDeps): Promise<(() => void) | null> {
  if (deps.signal?.aborted) return null;
  if (!deps.slots) return () => {};
  const release = await deps.slots.acquire();
  // shut down while waiting for a slot: nothing is sent (the slots free up as the aborted samples end)
  if (deps.signal?.aborted) {
    release();
    return null;
  }
  return release;
}

/**
 * The sample's log line. A collapse is worth a warning and a failed request an error: with
 * --log-level warn an operator still sees both, and only them.
 */
function logSample(log: Logger, probe: ProbeConfig, sample: SampleResult): void {
  const level = sample.verdict === 'error' ? 'error' : sample.verdict === 'fail' ? 'warn' : 'info';
  log[level](
    {
      sample: sample.index,
      ...(probe.temperatures ? { temperature: sample.temperature } : {}),
      verdict: sample.verdict,
      reasons: sample.reasons,
      findings: sample.findings.map((f) => ({
        kind: f.kind,
        severity: f.severity,
        channel: f.channel,
        atChar: f.atChar,
        atToken: f.atToken,
        ...(f.rule ? { rule: f.rule } : {}),
      })),
      outputTokens: sample.outputTokens,
      durationSeconds: Math.round(sample.durationSeconds * 1000) / 1000,
      error: sample.error?.type,
    },
    'sample finished',
  );
}
