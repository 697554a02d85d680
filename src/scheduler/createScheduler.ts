import cron, { type ScheduledTask, type TaskOptions } from 'node-cron';
import type { Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import { ProbeLookupError, runKey, type ProbeService } from './probeService.js';
import { scheduleOffsetMs } from './scheduleOffset.js';

export interface Scheduler {
  /**
   * Makes the tasks those of `config` (start and reload): a pair whose schedule is unchanged
   * keeps its task and its pending start; a changed or removed pair's task is replaced or
   * stopped, and a start of it still waiting for its offset is cancelled (counted as reload).
   * Every scheduled pair with runOnStart that has not run yet has a first run: one kept from
   * before the reload, else a new one, the new ones spread over the first minute.
   */
  apply(config: Config): void;
  /** Stops every task and every start still waiting for its offset; runs in flight are not touched. */
  stop(): void;
  /** When the pair's next scheduled run starts (ms since the epoch), its first run included; null when it has no schedule. */
  nextRun(target: string, probe: string): number | null;
  /** Number of cron tasks. */
  readonly size: number;
}

/** Why a scheduled run did not start (the `reason` label of coherency_probe_skipped_total). */
export type SkipReason = 'overlap' | 'missed_tick' | 'concurrency_limit' | 'reload';

/** A start waiting for its timer: after a tick, for the pair's offset; or the pair's first run after start. */
interface Waiting {
  at: number;
  kind: 'offset' | 'first';
}

/** A scheduled target × probe: its cron task, its offset after each tick and the starts waiting for a timer. */
interface Pair {
  target: string;
  probe: string;
  expression: string;
  task: ScheduledTask;
  offsetMs: number;
  fire: () => void;
  waiting: Map<NodeJS.Timeout, Waiting>;
}

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
 * waiting for a sample slot (concurrency_limit), a tick node-cron reached too late
 * (missed_tick, the event loop was blocked), or a start a reload cancelled (reload).
 *
 * apply() is a diff, not a rebuild: a pair whose schedule a reload leaves as it was keeps its
 * task and any start waiting for its offset (that start runs with the config of its moment).
 * Rebuilding every task on each reload cancelled those starts, and a SIGHUP every few minutes
 * lost about half the runs without a trace.
 *
 * Each pair with runOnStart also runs once soon after start (firstRunDelayMs), unless it has
 * run by then: a daemon just pointed at a server shows a verdict within a minute.
 */
export function createScheduler(service: ProbeService, metrics: Metrics, logger: Logger, deps: SchedulerDeps = {}): Scheduler {
  const createTask = deps.createTask ?? ((expression, fn, options) => cron.createTask(expression, fn, options));
  const now = deps.now ?? Date.now;
  const pairs = new Map<string, Pair>();

  const skipped = (target: string, probe: string, reason: SkipReason) => metrics.skipped.inc({ target, probe, reason });

  /** Runs fn after ms, the time it is due kept for nextRun and the timer for drop. */
  const later = (pair: Pair, kind: Waiting['kind'], ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      pair.waiting.delete(timer);
      fn();
    }, ms);
    pair.waiting.set(timer, { at: now() + ms, kind });
  };

  /** Cancels a pair's starts of one kind (all when none given); returns how many were cancelled. */
  const cancel = (pair: Pair, kind?: Waiting['kind']): number => {
    let cancelled = 0;
    for (const [timer, w] of pair.waiting) {
      if (kind && w.kind !== kind) continue;
      clearTimeout(timer);
      pair.waiting.delete(timer);
      cancelled++;
    }
    return cancelled;
  };

  /** Stops a pair's task and its waiting starts; returns how many starts were waiting for their offset. */
  const drop = (pair: Pair): number => {
    void pair.task.destroy();
    const offsets = [...pair.waiting.values()].filter((w) => w.kind === 'offset').length;
    cancel(pair);
    return offsets;
  };

  const schedule = (targetName: string, probeName: string, expression: string): Pair => {
    const log = logger.child({ target: targetName, probe: probeName });
    const fire = () => {
      try {
        // The run's own failures become error samples; it never rejects.
        void service.run(targetName, probeName, 'schedule');
      } catch (err) {
        if (err instanceof ProbeLookupError && err.code === 'ALREADY_RUNNING') {
          const reason: SkipReason = service.isWaitingForSlot(targetName, probeName) ? 'concurrency_limit' : 'overlap';
          skipped(targetName, probeName, reason);
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
    const task = createTask(
      expression,
      () => {
        if (pair.offsetMs === 0) return fire();
        later(pair, 'offset', pair.offsetMs, fire);
      },
      { name: `${targetName}/${probeName}`, logger: cronLogger(log) },
    );
    const pair: Pair = { target: targetName, probe: probeName, expression, task, offsetMs: 0, fire, waiting: new Map() };
    // node-cron calls a tick missed when it gets to it more than a second late (a blocked event loop).
    task.on('execution:missed', (context) => {
      skipped(targetName, probeName, 'missed_tick');
      log.warn(
        { reason: 'missed_tick', tick: context.date.toISOString() },
        'scheduled run skipped: the event loop reached its cron tick more than 1 s late',
      );
    });
    const interval = scheduleIntervalSeconds(task);
    if (interval !== null) metrics.scheduleInterval.set({ target: targetName, probe: probeName }, interval);
    pair.offsetMs = scheduleOffsetMs(targetName, probeName, shortestGapSeconds(task));
    void task.start();
    return pair;
  };

  return {
    get size() {
      return pairs.size;
    },
    stop() {
      for (const pair of pairs.values()) drop(pair);
      pairs.clear();
    },
    nextRun(target, probe) {
      const pair = pairs.get(runKey(target, probe));
      if (!pair) return null;
      const tick = pair.task.getNextRun();
      const times = [...[...pair.waiting.values()].map((w) => w.at), ...(tick ? [tick.getTime() + pair.offsetMs] : [])];
      return times.length ? Math.min(...times) : null;
    },
    apply(config) {
      const wanted = new Map<string, { target: string; probe: string; expression: string; runOnStart: boolean }>();
      const configured = new Set<string>();
      for (const target of config.targets) {
        for (const probeName of target.probes) {
          const key = runKey(target.name, probeName);
          configured.add(key);
          const probe = config.probes.find((p) => p.name === probeName);
          if (probe?.schedule) {
            wanted.set(key, { target: target.name, probe: probeName, expression: probe.schedule, runOnStart: probe.runOnStart });
          }
        }
      }
      let kept = 0;
      for (const [key, pair] of pairs) {
        if (wanted.get(key)?.expression === pair.expression) {
          kept++;
          continue;
        }
        pairs.delete(key);
        const cancelled = drop(pair);
        metrics.scheduleInterval.remove({ target: pair.target, probe: pair.probe });
        if (cancelled === 0) continue;
        const log = logger.child({ target: pair.target, probe: pair.probe });
        // A pair the reload removed loses its series anyway: only a pair still configured is counted.
        if (configured.has(key)) {
          for (let i = 0; i < cancelled; i++) skipped(pair.target, pair.probe, 'reload');
          log.warn(
            { reason: 'reload', cancelled },
            'scheduled run skipped: a reload changed the schedule while the run waited for its start offset',
          );
        } else {
          log.info({ cancelled }, 'scheduled run cancelled: a reload removed the pair');
        }
      }
      const firstRuns: Pair[] = [];
      for (const [key, want] of wanted) {
        let pair = pairs.get(key);
        if (!pair) {
          pair = schedule(want.target, want.probe, want.expression);
          pairs.set(key, pair);
        }
        const hasFirst = [...pair.waiting.values()].some((w) => w.kind === 'first');
        // A pair that has run since start (a reload, a tick that came first, a manual run) needs no first run;
        // one still waiting for it keeps its time; runOnStart: false drops it.
        if (!want.runOnStart) cancel(pair, 'first');
        else if (!hasFirst && !service.hasRun(want.target, want.probe)) firstRuns.push(pair);
      }
      for (const [i, pair] of firstRuns.entries()) {
        const { target, probe, fire } = pair;
        later(pair, 'first', firstRunDelayMs(i, firstRuns.length), () => (service.hasRun(target, probe) ? undefined : fire()));
      }
      logger.debug({ tasks: pairs.size, kept, added: pairs.size - kept, firstRuns: firstRuns.length }, 'schedules applied');
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
