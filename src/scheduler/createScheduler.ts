import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { ProbeLookupError, type ProbeService } from './probeService.js';

export interface Scheduler {
  /** Replaces every task with those of `config` (start and reload). */
  apply(config: Config): void;
  /** Stops every task; runs in flight are not touched. */
  stop(): void;
  /** Number of cron tasks. */
  readonly size: number;
}

/**
 * One cron task per target × scheduled probe. A tick while the previous run of the
 * same pair is still going is skipped (logged), never queued: queued long probes pile up.
 */
export function createScheduler(service: ProbeService, metrics: Metrics, logger: Logger): Scheduler {
  let tasks: ScheduledTask[] = [];

  const stop = () => {
    for (const t of tasks) void t.destroy();
    tasks = [];
  };

  return {
    get size() {
      return tasks.length;
    },
    stop,
    apply(config) {
      stop();
      metrics.scheduleInterval.reset();
      for (const target of config.targets) {
        for (const probeName of target.probes) {
          const probe = config.probes.find((p) => p.name === probeName);
          if (!probe?.schedule) continue;
          const log = logger.child({ target: target.name, probe: probe.name });
          const task = cron.createTask(
            probe.schedule,
            () => {
              try {
                // The run's own failures become error samples; it never rejects.
                void service.run(target.name, probe.name, 'schedule');
              } catch (err) {
                if (err instanceof ProbeLookupError && err.code === 'ALREADY_RUNNING') {
                  log.warn('scheduled run skipped: the previous run is still going');
                } else {
                  log.error({ err }, 'scheduled run failed to start');
                }
              }
            },
            { name: `${target.name}/${probe.name}` },
          );
          const interval = scheduleIntervalSeconds(task);
          if (interval !== null) metrics.scheduleInterval.set({ target: target.name, probe: probe.name }, interval);
          tasks.push(task);
          void task.start();
        }
      }
      logger.info({ tasks: tasks.length }, 'schedules applied');
    },
  };
}

/** Longest gap between the next few runs: irregular schedules then never look stale too early. */
export function scheduleIntervalSeconds(task: Pick<ScheduledTask, 'getNextRuns'>): number | null {
  const runs = task.getNextRuns(12);
  let longest = 0;
  for (let i = 1; i < runs.length; i++) {
    longest = Math.max(longest, (runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000);
  }
  return longest > 0 ? longest : null;
}
