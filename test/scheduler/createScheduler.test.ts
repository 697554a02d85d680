import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { createScheduler, scheduleIntervalSeconds } from '../../src/scheduler/createScheduler.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { silentLogger, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

test('a scheduled run never overlaps itself; other pairs keep running', async () => {
  const stream = fakeStream({ healthy: { content: healthyProse(2000, 5) }, other: { content: healthyProse(2000, 6) } });
  const config = testConfig({
    targets: [
      testTarget({ name: 'slow', model: 'healthy', probes: ['tick'] }),
      testTarget({ name: 'fast', model: 'other', probes: ['tick'] }),
    ],
    probes: [testProbe({ name: 'tick', schedule: '* * * * * *' })],
  });
  const metrics = createMetrics(new Registry(), { version: 't', defaultMetrics: false });
  const history = new RunHistory({ maxRuns: 100, maxBytes: 64 * 1024 * 1024 });
  // Hold only the "slow" target's stream.
  let releaseSlow = () => {};
  const slowGate = new Promise<void>((r) => (releaseSlow = r));
  const inner = stream.fn;
  const wrapped = new ProbeService({
    config,
    probe: {
      stream: async (req, opts) => {
        if (req.body['model'] === 'healthy') await slowGate;
        return inner(req, opts);
      },
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => Math.random().toString(36),
    },
    metrics,
    history,
    logger: silentLogger,
  });
  const sched = createScheduler(wrapped, metrics, silentLogger);
  sched.apply(config);
  assert.equal(sched.size, 2);
  await new Promise((r) => setTimeout(r, 3300));
  sched.stop();
  const slowRequests = stream.requests.filter((r) => r.body['model'] === 'healthy').length;
  const fastRequests = stream.requests.filter((r) => r.body['model'] === 'other').length;
  releaseSlow();
  await wrapped.drain();
  assert.equal(slowRequests, 0, 'the first slow run is still held');
  assert.equal(wrapped.isRunning('slow', 'tick'), false);
  assert.ok(fastRequests >= 2, `the other target kept running (${fastRequests} runs)`);
  const slowRuns = history.list({ target: 'slow' }).length;
  assert.equal(slowRuns, 1, 'ticks during the held run were skipped, not queued');
});

test('scheduleIntervalSeconds reads the longest gap between next runs', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
  assert.equal(scheduleIntervalSeconds({ getNextRuns: () => [at(0), at(15), at(30), at(45)] }), 15);
  assert.equal(scheduleIntervalSeconds({ getNextRuns: () => [at(0), at(10), at(40)] }), 30);
  assert.equal(scheduleIntervalSeconds({ getNextRuns: () => [at(0)] }), null);
});
