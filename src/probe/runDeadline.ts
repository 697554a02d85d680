import { RunDeadlineAbort } from '../client/runDeadline.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import { probeKindOf } from './kinds/index.js';

/**
 * The deadline of a whole run (timeouts.runSeconds). Each request has its own timeouts, but a
 * run that sends several (a conformance run: about 6 requests in one sample slot; samples one
 * after the other) had none as a whole: a server answering each request just inside its
 * timeouts held the slot for hours. By default a run gets totalSeconds for each of its samples
 * (a conformance run is one sample: one totalSeconds for all its checks), which no healthy run
 * comes near, plus one idleSeconds, so that a one-request run still ends by its request's own
 * totalSeconds (timeout_total) and not by a deadline that fell on the same instant; past it the requests in flight end with `timeout_run`, no further request is sent,
 * and the samples and checks done so far are kept.
 */

/**
 * The run's deadline in seconds: runSeconds when set, else totalSeconds for each sample of the run
 * (its kind says how many: the conformance checklist is one, a temperature sweep every
 * temperature of every sample) plus one idleSeconds.
 */
export function runDeadlineSeconds(target: TargetConfig, probe: ProbeConfig): number {
  const t = { ...target.timeouts, ...probe.timeouts };
  return t.runSeconds ?? t.totalSeconds * Math.max(1, probeKindOf(probe).samplesPerRun(probe)) + t.idleSeconds;
}

export interface RunDeadline {
  /** Aborts with a RunDeadlineAbort when the deadline passes, or with the parent's reason (shutdown). */
  signal: AbortSignal;
  /** Stops the timer (the run ended). */
  clear(): void;
}

/** Starts the deadline of a run now; `parent` is the daemon's signal. Not finite or not positive: no deadline. */
export function startRunDeadline(seconds: number, parent?: AbortSignal): RunDeadline {
  const local = new AbortController();
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.min(2 ** 31 - 1, Math.max(1, Math.round(seconds * 1000))) : null;
  const timer = ms === null ? null : setTimeout(() => local.abort(new RunDeadlineAbort(seconds)), ms);
  return {
    signal: parent ? AbortSignal.any([parent, local.signal]) : local.signal,
    clear: () => {
      if (timer) clearTimeout(timer);
    },
  };
}
