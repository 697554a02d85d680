import type { Config } from '../config/types.js';
import type { Scheduler } from '../scheduler/createScheduler.js';

/** When the next run of each scheduled pair comes, as the start-up line says it: the soonest and the latest, in whole seconds from now. */
export function firstRuns(
  config: Config,
  scheduler: Pick<Scheduler, 'nextRun'>,
  nowMs: number,
): { pairs: number; fromSeconds: number; toSeconds: number } {
  const at = config.targets
    .flatMap((t) => t.probes.map((p) => scheduler.nextRun(t.name, p)))
    .filter((x): x is number => x !== null)
    .map((ms) => Math.max(0, Math.ceil((ms - nowMs) / 1000)));
  return at.length
    ? { pairs: at.length, fromSeconds: Math.min(...at), toSeconds: Math.max(...at) }
    : { pairs: 0, fromSeconds: 0, toSeconds: 0 };
}

/** The line start-up logs once listening: where, and when the first runs come. */
export function startupLine(url: string, first: ReturnType<typeof firstRuns>): string {
  const when =
    first.pairs === 0
      ? 'no probe has a schedule: runs start only from /probe or the index page'
      : `first runs of ${first.pairs} target×probe pair${first.pairs === 1 ? '' : 's'} in ${first.fromSeconds}${first.toSeconds > first.fromSeconds ? `-${first.toSeconds}` : ''} s, then on their schedules (runOnStart: false waits for the schedule)`;
  return `coherency-exporter listening on ${url}; ${when}`;
}
