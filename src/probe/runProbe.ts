import type { ProbeConfig, TargetConfig } from '../config/types.js';
import type { ProbeDeps } from './probeDeps.js';
import type { RunResult } from './probeTypes.js';
import { isRunDeadline } from '../client/runDeadline.js';
import { probeKindOf } from './kinds/index.js';
import { runDeadlineSeconds, startRunDeadline } from './runDeadline.js';

/**
 * Runs one probe against one target with the module of its kind (PROBE_KINDS of kinds/index.ts:
 * generation, recall, contamination, conformance), within the run's deadline (runDeadline.ts):
 * the kind sees it as its signal, aborted with a RunDeadlineAbort. Never throws: failures become
 * `error` samples.
 * The contract the kinds share with this dispatcher is probeDeps.ts; this module exports
 * runProbe and nothing else, so no kind is reached through it and none imports it back.
 */
export async function runProbe(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'] = 'schedule',
): Promise<RunResult> {
  const seconds = runDeadlineSeconds(target, probe);
  const deadline = startRunDeadline(seconds, deps.signal);
  try {
    const run = await probeKindOf(probe).run(target, probe, { ...deps, signal: deadline.signal }, trigger);
    // A deadline that passed while the run waited for a slot cut no request: the last sample says why the rest is missing.
    // The result is a new one, its last sample with the note: no result is changed once built.
    const last = run.samples.at(-1);
    if (!isRunDeadline(deadline.signal.reason) || !last || run.samples.some((x) => x.error?.type === 'timeout_run')) return run;
    const note = `the run passed its deadline of ${seconds} s (timeouts.runSeconds) before every sample was sent`;
    return { ...run, samples: [...run.samples.slice(0, -1), { ...last, notes: [...last.notes, note] }] };
  } finally {
    deadline.clear();
  }
}
