// Issue 21 §3: a daemon just pointed at a server shows a verdict within a minute, not after the
// first tick of its schedule. Each scheduled pair with runOnStart (the default) runs once soon
// after start, the pairs spread over the first minute; nextRun says when, for the index page.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScheduledTask } from 'node-cron';
import { createScheduler, FIRST_RUN_DELAY_MS, firstRunDelayMs } from '../../src/scheduler/createScheduler.js';
import { scheduleOffsetMs } from '../../src/scheduler/scheduleOffset.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { silentLogger, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { testService } from '../helpers/testService.js';
import { healthyProse } from '../helpers/texts.js';

const HOUR_MS = 3_600_000;
const flush = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** Hourly node-cron tasks whose ticks never come during the test: only first runs can start a run. */
function hourlyTasks(start: number) {
  const tick = start + HOUR_MS;
  return (_expression: string, _fn: () => void) =>
    ({
      getNextRun: () => new Date(tick),
      getNextRuns: (n: number) => Array.from({ length: n }, (_, i) => new Date(tick + i * HOUR_MS)),
      on: () => {},
      start: () => {},
      destroy: () => {},
    }) as unknown as ScheduledTask;
}

test('each scheduled pair runs once within the first minute, the first after a second; runOnStart: false waits for the schedule', async () => {
  const start = Date.UTC(2026, 0, 1, 0, 0, 30);
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: start });
  try {
    const stream = fakeStream({ healthy: { content: healthyProse(400, 3) } });
    const config = testConfig({
      targets: ['a', 'b', 'c'].map((name) => testTarget({ name, model: 'healthy', probes: ['hourly', 'later', 'manual'] })),
      probes: [
        testProbe({ name: 'hourly', schedule: '0 * * * *' }),
        testProbe({ name: 'later', schedule: '0 * * * *', runOnStart: false }),
        testProbe({ name: 'manual' }),
      ],
    });
    const { service, metrics, history } = testService(config, stream.fn);
    const sched = createScheduler(service, metrics, silentLogger, { createTask: hourlyTasks(start) });
    sched.apply(config);

    // when each pair runs next: its first run, spread; the schedule's tick (plus the pair's offset); nothing
    assert.deepEqual(
      ['a', 'b', 'c'].map((t) => sched.nextRun(t, 'hourly')! - start),
      [0, 1, 2].map((i) => firstRunDelayMs(i, 3)),
    );
    assert.equal(firstRunDelayMs(0, 3), FIRST_RUN_DELAY_MS);
    assert.ok(firstRunDelayMs(2, 3) < 60_000);
    assert.equal(sched.nextRun('a', 'later'), start + HOUR_MS + scheduleOffsetMs('a', 'later', 3600));
    assert.equal(sched.nextRun('a', 'manual'), null);

    const ran = () => history.list().map((r) => `${r.target}/${r.probe}`);
    mock.timers.tick(FIRST_RUN_DELAY_MS - 1);
    await flush();
    assert.deepEqual(ran(), [], 'nothing before the first second');
    mock.timers.tick(1);
    await flush();
    assert.deepEqual(ran(), ['a/hourly']);
    // a pair run by hand before its first run is due has had its first run
    await service.run('b', 'hourly', 'manual');
    mock.timers.tick(59_000);
    await flush();
    assert.deepEqual(ran().sort(), ['a/hourly', 'b/hourly', 'c/hourly'], 'every runOnStart pair within the first minute, once');
    assert.deepEqual(
      history.list().map((r) => r.trigger),
      ['schedule', 'manual', 'schedule'],
    );
    assert.equal(sched.nextRun('a', 'hourly'), start + HOUR_MS + scheduleOffsetMs('a', 'hourly', 3600), 'then the schedule');

    // a reload gives no second first run to a pair that had one, but one to a pair it adds
    const more = { ...config, targets: [...config.targets, testTarget({ name: 'd', model: 'healthy', probes: ['hourly'] })] };
    service.setConfig(more);
    sched.apply(more);
    assert.equal(sched.nextRun('d', 'hourly'), Date.now() + firstRunDelayMs(0, 1));
    mock.timers.tick(60_000);
    await flush();
    assert.deepEqual(ran().sort(), ['a/hourly', 'b/hourly', 'c/hourly', 'd/hourly']);
    sched.stop();
    await service.drain();
  } finally {
    mock.timers.reset();
  }
});
