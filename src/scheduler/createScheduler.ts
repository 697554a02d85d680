import cron, { type ScheduledTask, type TaskOptions } from 'node-cron';
import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { ProbeLookupError, type ProbeService } from './probeService.js';
import { scheduleOffsetMs } from './scheduleOffset.js';

export interface Scheduler {
  /** Replaces every task with those of `config` (start and reload). */
  apply(config: Config): void;
  /** Stops every task and every start still waiting for its offset; runs in flight are not touched. */
  stop(): void;
  /** Number of cron tasks. */
  readonly size: number;
}

/** Why a scheduled run did not start (the `reason` label of coherency_probe_skipped_total). */
export type SkipReason = 'overlap' | 'missed_tick' | 'concurrency_limit';

export interface SchedulerDeps {
  /** node-cron's createTask; tests pass a fake to fire ticks by hand. */
  createTask?: (expression: string, fn: () => void, options: TaskOptions) => ScheduledTask;
}

/** node-cron's own messages ("missed execution ...", task errors) as JSON log lines, not raw stderr prints. */
export function cronLogger(log: Logger): NonNullable<TaskOptions['logger']> {
  return {
    info: (message) => log.info({ source: 'node-cron' }, message),
    warn: (message) => log.warn({ source: 'node-cron' }, message),
    error: (message, err) =>
      message instanceof Error
        ? log.error({ source: 'node-cron', err: message }, message.message)
        : log.error({ source: 'node-cron', err }, message),
    debug: (message, err) =>
      message instanceof Error
        ? log.debug({ source: 'node-cron', err: message }, message.message)
        : log.debug({ source: 'node-cron', err }, message),
  };
}

/**
 * One cron task per target × scheduled probe. Each pair starts a fixed offset after its tick
 * (scheduleOffsetMs), so one schedule's runs spread over its interval. A tick that starts
 * nothing is counted in coherency_probe_skipped_total with its reason, never queued (queued
 * long probes pile up): the previous run of the pair still streaming (overlap) or still
 * waiting for a sample slot (concurrency_limit), or a tick node-cron reached too late
 * (missed_tick, the event loop was blocked).
 */
export function createScheduler(service: ProbeService, metrics: Metrics, logger: Logger, deps: SchedulerDeps = {}): Scheduler {
  const createTask = deps.createTask ?? ((expression, fn, options) => cron.createTask(expression, fn, options));
  let tasks: ScheduledTask[] = [];
  const waiting = new Set<NodeJS.Timeout>();

  const stop = () => {
    for (const t of tasks) void t.destroy();
    tasks = [];
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
  };

  const skipped = (target: string, probe: string, reason: SkipReason) => metrics.skipped.inc({ target, probe, reason });

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
          const fire = () => {
            try {
              // The run's own failures become error samples; it never rejects.
              void service.run(target.name, probe.name, 'schedule');
            } catch (err) {
              if (err instanceof ProbeLookupError && err.code === 'ALREADY_RUNNING') {
                const reason: SkipReason = service.isWaitingForSlot(target.name, probe.name) ? 'concurrency_limit' : 'overlap';
                skipped(target.name, probe.name, reason);
                log.warn(
                  { reason },
                  reason === 'overlap'
                    ? 'scheduled run skipped: the previous run is still going'
                    : 'scheduled run skipped: the previous run is still waiting for a sample slot (server.maxConcurrentSamples)',
                );
              } else {
                log.error({ err }, 'scheduled run failed to start');
              }
            }
          };
          let offsetMs = 0;
          const task = createTask(
            probe.schedule,
            () => {
              if (offsetMs === 0) return fire();
              const timer = setTimeout(() => {
                waiting.delete(timer);
                fire();
              }, offsetMs);
              waiting.add(timer);
            },
            { name: `${target.name}/${probe.name}`, logger: cronLogger(log) },
          );
          // node-cron calls a tick missed when it gets to it more than a second late (a blocked event loop).
          task.on('execution:missed', (context) => {
            skipped(target.name, probe.name, 'missed_tick');
            log.warn(
              { reason: 'missed_tick', tick: context.date.toISOString() },
              'scheduled run skipped: the event loop reached its cron tick more than 1 s late',
            );
          });
          const interval = scheduleIntervalSeconds(task);
          if (interval !== null) metrics.scheduleInterval.set({ target: target.name, probe: probe.name }, interval);
          offsetMs = scheduleOffsetMs(target.name, probe.name, shortestGapSeconds(task));
          tasks.push(task);
          void task.start();
        }
      }
      logger.info({ tasks: tasks.length }, 'schedules applied');
    },
  };
}

function gapsSeconds(task: Pick<ScheduledTask, 'getNextRuns'>): number[] {
  const runs = task.getNextRuns(12);
  const gaps: number[] = [];
  for (let i = 1; i < runs.length; i++) gaps.push((runs[i]!.getTime() - runs[i - 1]!.getTime()) / 1000);
  return gaps.filter((g) => g > 0);
}

/** Longest gap between the next few runs: irregular schedules then never look stale too early. */
export function scheduleIntervalSeconds(task: Pick<ScheduledTask, 'getNextRuns'>): number | null {
  const gaps = gapsSeconds(task);
  return gaps.length ? Math.max(...gaps) : null;
}

/** Shortest gap between the next few runs: a start offset below it never pushes a run past the next tick. */
export function shortestGapSeconds(task: Pick<ScheduledTask, 'getNextRuns'>): number | null {
  const gaps = gapsSeconds(task);
  return gaps.length ? Math.min(...gaps) : null;
}
