import type { RunResult } from '../probe/probeTypes.js';

/** Exit codes of `probe`: 0 all passed, 1 a sample failed (or warned, with --fail-on warn), 2 usage or config, 3 a target error and nothing failed. */
export const PROBE_EXIT = { OK: 0, FAILED: 1, USAGE: 2, TARGET_ERROR: 3 } as const;

export type FailOn = 'warn' | 'fail';

/** A failed (or with failOn warn, warned) sample wins over a target error: the build is bad either way. */
export function probeExitCode(runs: readonly RunResult[], failOn: FailOn): number {
  const verdicts = runs.flatMap((r) => (r.samples.length ? r.samples.map((s) => s.verdict) : [r.verdict]));
  if (verdicts.some((v) => v === 'fail' || (failOn === 'warn' && v === 'warn'))) return PROBE_EXIT.FAILED;
  if (verdicts.some((v) => v === 'error')) return PROBE_EXIT.TARGET_ERROR;
  return PROBE_EXIT.OK;
}
