import { EXIT } from '../cli/exitCodes.js';
import type { RunResult } from '../probe/probeTypes.js';

export type FailOn = 'warn' | 'fail';

/**
 * The exit code of a `probe` run (the codes are src/cli/exitCodes.ts): a failed (or with
 * failOn warn, warned) sample wins over a target error, as the build is bad either way.
 */
export function probeExitCode(runs: readonly RunResult[], failOn: FailOn): number {
  const verdicts = runs.flatMap((r) => (r.samples.length ? r.samples.map((s) => s.verdict) : [r.verdict]));
  if (verdicts.some((v) => v === 'fail' || (failOn === 'warn' && v === 'warn'))) return EXIT.FAILED;
  if (verdicts.some((v) => v === 'error')) return EXIT.TARGET_ERROR;
  return EXIT.OK;
}
