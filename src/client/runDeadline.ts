/**
 * The reason a run's deadline (timeouts.runSeconds) aborts the requests of the run with. The
 * clients end a request aborted for it with `timeout_run` rather than `aborted` (which means the
 * daemon stopped), so a run that held its slot too long is the target's error, not a shutdown.
 */
export class RunDeadlineAbort extends Error {
  readonly code = 'timeout_run';

  constructor(readonly seconds: number) {
    super(`the run passed its deadline of ${seconds} s (timeouts.runSeconds)`);
    this.name = 'RunDeadlineAbort';
  }
}

/** True for the reason a run deadline aborts with (by its code, so a copy from another bundle counts too). */
export function isRunDeadline(reason: unknown): reason is RunDeadlineAbort {
  return typeof reason === 'object' && reason !== null && (reason as { code?: unknown }).code === 'timeout_run';
}
