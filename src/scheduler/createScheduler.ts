import cron, { type ScheduledTask, type TaskOptions } from 'node-cron';
import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { ProbeLookupError, runKey, type ProbeService } from './probeService.js';
import { scheduleOffsetMs } from './scheduleOffset.js';

export interface Scheduler {
  /**
   * Replaces every task with those of `config` (start and reload). Every scheduled pair with
   * runOnStart that has not run yet gets a first run, the pairs spread over the first minute.
   */
  apply(config: Config): void;
  /** When the pair's next scheduled run starts (ms since the epoch), its first run included; null when it has no schedule. */
  nextRun(target: string, probe: string): number | null;
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
  /** The clock (ms since the epoch); Date.now by default. */
  now?: () => number;
}

/** The first run of the first pair comes this long after start: the daemon is listening and has said so. */
export const FIRST_RUN_DELAY_MS = 1000;
/** The first runs of all pairs are spread evenly over this, from FIRST_RUN_DELAY_MS on: a minute after start every pair has run. */
export const FIRST_RUNS_SPREAD_MS = 59_000;

/** When the i-th of n first runs starts, in ms after start: in [FIRST_RUN_DELAY_MS, FIRST_RUN_DELAY_MS + FIRST_RUNS_SPREAD_MS). */
export function firstRunDelayMs(i: number, n: number): number {
  return FIRST_RUN_DELAY_MS + Math.floor((i * FIRST_RUNS_SPREAD_MS) / Math.max(1, n));
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
  const now = deps.now ?? Date.now;
  let tasks: ScheduledTask[] = [];
  const waiting = new Set<NodeJS.Timeout>();
  /** Per pair: its task, the offset after each tick, and when a start delayed by a timer (first run or offset) is due. */
  const pairs = new Map<string, { task: ScheduledTask; offsetMs: number; due: Set<number> }>();

  const stop = () => {
    for (const t of tasks) void t.destroy();
    tasks = [];
    for (const timer of waiting) clearTimeout(timer);
    waiting.clear();
    pairs.clear();
  };
  /** Runs fn after ms, with the time it is due kept for nextRun. */
  const later = (key: string, ms: number, fn: () => void) => {
    const at = now() + ms;
    const timer = setTimeout(() => {
      waiting.delete(timer);
      pairs.get(key)?.due.delete(at);
      fn();
    }, ms);
    waiting.add(timer);
    pairs.get(key)?.due.add(at);
  };

  const skipped = (target: string, probe: string, reason: SkipReason) => metrics.skipped.inc({ target, probe, reason });

  return {
    get size() {
      return tasks.length;
    },
    stop,
    nextRun(target, probe) {
      const pair = pairs.get(runKey(target, probe));
      if (!pair) return null;
      const tick = pair.task.getNextRun();
      const times = [...pair.due, ...(tick ? [tick.getTime() + pair.offsetMs] : [])];
      return times.length ? Math.min(...times) : null;
    },
    apply(config) {
      stop();
      metrics.scheduleInterval.reset();
      const firstRuns: { key: string; fire: () => void }[] = [];
      for (const target of config.targets) {
        for (const probeName of target.probes) {
          const probe = config.probes.find((p) => p.name === probeName);
          if (!probe?.schedule) continue;
          const log = logger.child({ target: target.name, probe: probe.name });
          const key = runKey(target.name, probe.name);
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
              later(key, offsetMs, fire);
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
          pairs.set(key, { task, offsetMs, due: new Set() });
          tasks.push(task);
          void task.start();
          // A pair that has run since start (a reload, a tick that came first, a manual run) needs no first run.
          if (probe.runOnStart && !service.hasRun(target.name, probe.name)) {
            firstRuns.push({ key, fire: () => (service.hasRun(target.name, probe.name) ? undefined : fire()) });
          }
        }
      }
      for (const [i, { key, fire }] of firstRuns.entries()) later(key, firstRunDelayMs(i, firstRuns.length), fire);
      logger.debug({ tasks: tasks.length, firstRuns: firstRuns.length }, 'schedules applied');
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
