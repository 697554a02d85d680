// Issue 19, item 1: a reload keeps the starts waiting for their offset. Before, apply() rebuilt
// every task and cleared those timers: with a SIGHUP a second after each tick, 1 of 36 runs happened.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduledTask } from 'node-cron';
import pino from 'pino';
import type { Config } from '../../src/config/types.js';
import type { Metrics } from '../../src/metrics/createMetrics.js';
import { createScheduler } from '../../src/scheduler/createScheduler.js';
import { scheduleOffsetMs } from '../../src/scheduler/scheduleOffset.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testService } from '../helpers/testService.js';
import { testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const GAP_S = 20;

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** node-cron tasks whose ticks the test fires by hand ("every 20 s"); `live` counts tasks not destroyed. */
function fakeCron() {
  const ticks = new Map<string, () => void>();
  let live = 0;
  const createTask = (_expression: string, fn: () => void, options: { name?: string }) => {
    live++;
    const t0 = Date.UTC(2026, 0, 1);
    let destroyed = false;
    ticks.set(options.name!, () => {
      if (!destroyed) fn();
    });
    return {
      getNextRuns: (n: number) => Array.from({ length: n }, (_, i) => new Date(t0 + i * GAP_S * 1000)),
      on: () => {},
      start: () => {},
      destroy: () => {
        if (!destroyed) live--;
        destroyed = true;
      },
    } as unknown as ScheduledTask;
  };
  return { createTask, ticks, live: () => live };
}

/**
 * Six target × probe pairs on one schedule, as a fresh object each time (as a reload reads the
 * file). Without first runs, so every run counted comes from a tick (runOnStart: true for the
 * test of first runs across reloads).
 */
function sixPairs(schedule = '*/20 * * * * *', runOnStart = false): Config {
  return testConfig({
    targets: ['a', 'b', 'c'].map((name) => testTarget({ name, model: 'healthy', probes: ['p', 'q'] })),
    probes: [testProbe({ name: 'p', schedule, runOnStart }), testProbe({ name: 'q', schedule, runOnStart })],
  });
}

function setup() {
  const stream = fakeStream({ healthy: { content: healthyProse(300, 3) } });
  const { metrics, service } = testService(sixPairs(), stream.fn);
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const cron = fakeCron();
  const sched = createScheduler(service, metrics, logger, { createTask: cron.createTask });
  return { stream, metrics, service, sched, cron, lines };
}

async function skipped(metrics: Metrics): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of (await metrics.skipped.get()).values) out[`${v.labels['target']}/${v.labels['probe']}/${v.labels['reason']}`] = v.value;
  return out;
}

test('a reload one second after every tick loses no scheduled run (6 pairs x 6 ticks)', async () => {
  // the pairs must wait for an offset, or the test proves nothing
  const waits = ['a', 'b', 'c'].flatMap((t) => ['p', 'q'].map((p) => scheduleOffsetMs(t, p, GAP_S))).filter((ms) => ms > 1000);
  assert.ok(waits.length >= 4, `most pairs start over 1 s after the tick (${waits.length} of 6)`);
  mock.timers.enable({ apis: ['setTimeout'] });
  const { stream, metrics, service, sched, cron } = setup();
  try {
    sched.apply(sixPairs());
    for (let tick = 0; tick < 6; tick++) {
      for (const fire of cron.ticks.values()) fire();
      mock.timers.tick(1000);
      sched.apply(sixPairs()); // SIGHUP: the same file, read again
      service.setConfig(sixPairs());
      mock.timers.tick(GAP_S * 1000 - 1000);
      await flush();
      await service.drain();
    }
    assert.equal(stream.requests.length, 36, 'every tick of every pair ran');
    assert.deepEqual(await skipped(metrics), {});
    assert.equal(cron.live(), 6, 'the unchanged tasks were kept, not rebuilt');
  } finally {
    sched.stop();
    mock.timers.reset();
  }
});

test('a reload that changes a schedule cancels its waiting start, counts it as reload and logs it; the new task runs at its ticks', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  const { stream, metrics, service, sched, cron, lines } = setup();
  try {
    sched.apply(sixPairs());
    // a pair that waits over a second for its start
    const late = ['a', 'b', 'c'].find((t) => scheduleOffsetMs(t, 'p', GAP_S) > 1000)!;
    cron.ticks.get(`${late}/p`)!();
    mock.timers.tick(500);
    const changed = sixPairs();
    changed.probes[0] = { ...changed.probes[0]!, schedule: '*/30 * * * * *' };
    sched.apply(changed);
    service.setConfig(changed);
    mock.timers.tick(GAP_S * 1000);
    await flush();
    assert.equal(stream.requests.length, 0, 'the start planned under the old schedule was cancelled');
    assert.deepEqual(await skipped(metrics), { [`${late}/p/reload`]: 1 });
    assert.ok(
      lines.some((l) => l['reason'] === 'reload' && l['target'] === late && l['probe'] === 'p' && l['level'] === 40),
      'a warn line names the pair',
    );
    cron.ticks.get(`${late}/p`)!(); // the replacement task's tick
    mock.timers.tick(GAP_S * 1000);
    await flush();
    await service.drain();
    assert.equal(stream.requests.length, 1, 'the replacement runs at its next tick');
    assert.equal(cron.live(), 6);
  } finally {
    sched.stop();
    mock.timers.reset();
  }
});

test('a reload that removes a pair stops its task and its waiting start without a count', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  const { stream, metrics, service, sched, cron } = setup();
  try {
    sched.apply(sixPairs());
    for (const fire of cron.ticks.values()) fire();
    const fewer = sixPairs();
    fewer.targets = fewer.targets.filter((t) => t.name !== 'c');
    sched.apply(fewer);
    service.setConfig(fewer);
    mock.timers.tick(GAP_S * 1000);
    await flush();
    await service.drain();
    assert.equal(sched.size, 4);
    assert.equal(cron.live(), 4);
    assert.equal(stream.requests.filter((r) => r.body['model'] === 'healthy').length, 4, 'the kept pairs ran; c did not');
    assert.deepEqual(await skipped(metrics), {});
    const intervals = (await metrics.scheduleInterval.get()).values.map((v) => v.labels['target']);
    assert.ok(!intervals.includes('c'), 'the removed pair has no schedule interval series');
  } finally {
    sched.stop();
    mock.timers.reset();
  }
});

test('a reload keeps each pending first run at its time: every pair runs once within the first minute, none twice', async () => {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.UTC(2026, 0, 1) });
  const { stream, metrics, service, sched } = setup();
  try {
    sched.apply(sixPairs(undefined, true));
    // SIGHUPs every 5 s through the first minute, the same file each time; no cron tick comes
    for (let s = 0; s < 60; s += 5) {
      mock.timers.tick(5000);
      await flush();
      const again = sixPairs(undefined, true);
      sched.apply(again);
      service.setConfig(again);
    }
    mock.timers.tick(5000);
    await flush();
    await service.drain();
    assert.equal(stream.requests.length, 6, 'one first run per pair, the reloads neither cancelled nor repeated one');
    assert.deepEqual(await skipped(metrics), {});
  } finally {
    sched.stop();
    mock.timers.reset();
  }
});
