import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduledTask } from 'node-cron';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createMetrics, type Metrics } from '../../src/metrics/createMetrics.js';
import { createScheduler } from '../../src/scheduler/createScheduler.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { scheduleOffsetMs } from '../../src/scheduler/scheduleOffset.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { silentLogger, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { testService } from '../helpers/testService.js';
import { healthyProse } from '../helpers/texts.js';

const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** A node-cron task whose ticks and missed ticks the test fires by hand; "every 5 s". */
function fakeCron() {
  const tasks = new Map<string, { tick: () => void; emit: (event: string) => void }>();
  const createTask = (_expression: string, fn: () => void, options: { name?: string }) => {
    const listeners = new Map<string, Array<(c: { date: Date }) => void>>();
    const t0 = Date.UTC(2026, 0, 1);
    const task = {
      getNextRuns: (n: number) => Array.from({ length: n }, (_, i) => new Date(t0 + i * 5000)),
      on: (event: string, f: (c: { date: Date }) => void) => listeners.set(event, [...(listeners.get(event) ?? []), f]),
      start: () => {},
      destroy: () => {},
    };
    tasks.set(options.name!, {
      tick: fn,
      emit: (event) => {
        for (const f of listeners.get(event) ?? []) f({ date: new Date(t0) });
      },
    });
    return task as unknown as ScheduledTask;
  };
  return { createTask, tasks };
}

async function skippedBy(metrics: Metrics): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const v of (await metrics.skipped.get()).values) out[`${v.labels['target']}/${v.labels['reason']}`] = v.value;
  return out;
}

test('with every slot taken a run waits, starts when one is freed, and ticks it could not start are counted with their reason', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const stream = fakeStream({ healthy: { content: healthyProse(500, 3) } });
    stream.hold();
    const config = testConfig({
      targets: [testTarget({ name: 'a', model: 'healthy', probes: ['p'] }), testTarget({ name: 'b', model: 'healthy', probes: ['p'] })],
      probes: [testProbe({ name: 'p', schedule: '*/5 * * * * *' })],
    });
    config.server.maxConcurrentSamples = 1;
    const { service, metrics, history } = testService(config, stream.fn);
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    const cron = fakeCron();
    const sched = createScheduler(service, metrics, logger, { createTask: cron.createTask });
    sched.apply(config);
    const a = cron.tasks.get('a/p')!;
    const b = cron.tasks.get('b/p')!;

    // a's run starts at its offset after the tick, not before
    const offsetA = scheduleOffsetMs('a', 'p', 5);
    a.tick();
    if (offsetA > 0) {
      mock.timers.tick(offsetA - 1);
      await flush();
      assert.equal(stream.requests.length, 0, 'not before its offset');
    }
    mock.timers.tick(5000);
    await flush();
    assert.equal(stream.requests.length, 1, 'a streams');

    b.tick();
    mock.timers.tick(5000);
    await flush();
    assert.equal(stream.requests.length, 1, 'b waits: the only slot is held by a');
    assert.equal(service.isWaitingForSlot('b', 'p'), true);
    assert.equal(service.sampleSlots.waiting, 1);

    b.tick(); // b's previous run still waits for a slot
    a.tick(); // a's previous run still streams
    mock.timers.tick(5000);
    await flush();
    a.emit('execution:missed'); // node-cron reached a tick too late
    assert.deepEqual(await skippedBy(metrics), { 'b/concurrency_limit': 1, 'a/overlap': 1, 'a/missed_tick': 1 });
    const reasons = lines
      .filter((l) => l['reason'])
      .map((l) => `${l['target']}/${l['reason']}`)
      .sort();
    assert.deepEqual(reasons, ['a/missed_tick', 'a/overlap', 'b/concurrency_limit'], 'each skip is a JSON log line too');

    stream.release();
    await flush();
    await service.drain();
    assert.equal(stream.requests.length, 2, "b's queued sample ran once a's slot was free");
    assert.deepEqual(
      history
        .list({})
        .map((r) => `${r.target}:${r.verdict}`)
        .sort(),
      ['a:ok', 'b:ok'],
    );
    assert.equal(service.sampleSlots.inUse, 0);
    sched.stop();
  } finally {
    mock.timers.reset();
  }
});

test('stop() cancels starts still waiting for their offset', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const stream = fakeStream({ healthy: { content: healthyProse(500, 3) } });
    // a pair whose offset is not 0, so its start waits on a timer
    const name = ['a', 'b', 'c', 'd'].find((n) => scheduleOffsetMs(n, 'p', 5) > 0)!;
    const config = testConfig({
      targets: [testTarget({ name, model: 'healthy', probes: ['p'] })],
      probes: [testProbe({ name: 'p', schedule: '*/5 * * * * *' })],
    });
    const metrics = createMetrics(new Registry(), { version: 't', defaultMetrics: false });
    const service = new ProbeService({
      config,
      probe: { stream: stream.fn, env: {}, now: Date.now, logger: silentLogger, newId: () => 'x' },
      metrics,
      history: new RunHistory({ maxRuns: 10, maxBytes: 64 * 1024 * 1024 }),
      logger: silentLogger,
    });
    const cron = fakeCron();
    const sched = createScheduler(service, metrics, silentLogger, { createTask: cron.createTask });
    sched.apply(config);
    cron.tasks.get(`${name}/p`)!.tick();
    sched.stop();
    mock.timers.tick(5000);
    await flush();
    assert.equal(stream.requests.length, 0);
  } finally {
    mock.timers.reset();
  }
});

test("node-cron's missed ticks (a blocked event loop) are counted and logged as JSON, never printed raw", async () => {
  const stream = fakeStream({ healthy: { content: healthyProse(500, 3) } });
  const config = testConfig({
    targets: [testTarget({ name: 'a', model: 'healthy', probes: ['p'] })],
    probes: [testProbe({ name: 'p', schedule: '* * * * * *' })],
  });
  const metrics = createMetrics(new Registry(), { version: 't', defaultMetrics: false });
  const service = new ProbeService({
    config,
    probe: { stream: stream.fn, env: {}, now: Date.now, logger: silentLogger, newId: () => Math.random().toString(36) },
    metrics,
    history: new RunHistory({ maxRuns: 100, maxBytes: 64 * 1024 * 1024 }),
    logger: silentLogger,
  });
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const raw: unknown[] = [];
  const saved = { warn: console.warn, error: console.error, info: console.info };
  console.warn = console.error = console.info = (...args: unknown[]) => void raw.push(args);
  const sched = createScheduler(service, metrics, logger);
  try {
    sched.apply(config);
    await new Promise((r) => setTimeout(r, 1100));
    // block the event loop past node-cron's 1 s tolerance
    const until = Date.now() + 2600;
    while (Date.now() < until) {
      /* busy */
    }
    await new Promise((r) => setTimeout(r, 1200));
  } finally {
    sched.stop();
    Object.assign(console, saved);
  }
  await service.drain();
  const missed = (await skippedBy(metrics))['a/missed_tick'] ?? 0;
  assert.ok(missed >= 1, `missed ticks counted (${missed})`);
  assert.equal(lines.filter((l) => l['reason'] === 'missed_tick').length, missed, 'one JSON line per missed tick');
  assert.deepEqual(raw, [], 'nothing printed by node-cron itself');
});

test('a sample still waiting for a slot at shutdown sends nothing', async () => {
  const stream = fakeStream({ healthy: { content: healthyProse(500, 3) } });
  stream.hold();
  const config = testConfig({
    targets: [testTarget({ name: 'a', model: 'healthy', probes: ['p'] }), testTarget({ name: 'b', model: 'healthy', probes: ['p'] })],
    probes: [testProbe({ name: 'p' })],
  });
  config.server.maxConcurrentSamples = 1;
  const shutdown = new AbortController();
  const service = new ProbeService({
    config,
    probe: {
      stream: stream.fn,
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => Math.random().toString(36),
      signal: shutdown.signal,
    },
    metrics: createMetrics(new Registry(), { version: 't', defaultMetrics: false }),
    history: new RunHistory({ maxRuns: 10, maxBytes: 64 * 1024 * 1024 }),
    logger: silentLogger,
  });
  const a = service.run('a', 'p', 'manual');
  const b = service.run('b', 'p', 'manual');
  await flush();
  assert.equal(stream.requests.length, 1);
  shutdown.abort(new Error('shutting down'));
  stream.release();
  const [runA, runB] = await Promise.all([a, b]);
  assert.equal(runA.samples.length, 1);
  assert.equal(runB.samples.length, 0, 'b never started a sample');
  assert.equal(stream.requests.length, 1, 'b sent no request');
  assert.equal(service.sampleSlots.inUse, 0);
});
