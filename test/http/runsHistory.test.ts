import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { buildApp } from '../../src/http/buildApp.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { createRunStore } from '../../src/state/runStore.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { silentLogger, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const HEALTHY = healthyProse(2500, 7);
const COLLAPSED = `${healthyProse(900, 3)}\n\n${'The system keeps repeating this exact sentence again. '.repeat(120)}`;

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

test('/runs and /runs/:id over runs in memory, runs evicted by bytes, and stored runs read lazily', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-runs-'));
  dirs.push(dir);
  // a run stored by an earlier process
  const earlier = createRunStore({ dir, maxRuns: 50, maxBytes: 10_000_000, logger: silentLogger });
  await earlier.open();
  const previous: RunResult = {
    id: 'earlier',
    target: 'bad',
    probe: 'short',
    verdict: 'fail',
    trigger: 'schedule',
    startedAt: '2025-12-31T00:00:00.000Z',
    durationSeconds: 1,
    samples: [
      {
        index: 0,
        verdict: 'fail',
        reasons: [],
        findings: [],
        notes: [],
        outputTokens: 5,
        content: 'text of an earlier process',
        reasoning: '',
      } as unknown as RunResult['samples'][number],
    ],
  };
  await earlier.save(previous);

  const store = createRunStore({ dir, maxRuns: 50, maxBytes: 10_000_000, logger: silentLogger });
  assert.equal(await store.open(), 1);
  // room for one run's text at a time
  const history = new RunHistory({ maxRuns: 50, maxBytes: Math.max(HEALTHY.length, COLLAPSED.length) + 10 }, store);
  const config = testConfig({
    targets: [testTarget({ name: 'good', model: 'healthy' }), testTarget({ name: 'bad', model: 'collapse' })],
    probes: [testProbe({ samples: 1 })],
  });
  const registry = new Registry();
  let n = 0;
  const service = new ProbeService({
    config,
    probe: {
      stream: fakeStream({ healthy: { content: HEALTHY }, collapse: { content: COLLAPSED } }).fn,
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => `run-${++n}`,
    },
    metrics: createMetrics(registry, { version: 'test', defaultMetrics: false }),
    history,
    logger: silentLogger,
  });
  const app = buildApp({ service, registry, history, logger: silentLogger, version: 'test', isReady: () => true });
  try {
    assert.equal((await app.inject({ method: 'POST', url: '/probe?target=bad&probe=short', payload: {} })).json().verdict, 'fail'); // run-1, stored
    assert.equal((await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} })).json().verdict, 'ok'); // run-2 pushes run-1 out of memory
    await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} }); // run-3 pushes run-2 out: it was not stored
    await store.flush();
    assert.equal(history.size, 1);

    const list = (await app.inject('/runs')).json().runs as { id: string; samples: object[] }[];
    assert.deepEqual(
      list.map((r) => r.id),
      ['run-3', 'run-1', 'earlier'],
    );
    assert.ok(
      list.every((r) => r.samples.every((s) => !('content' in s))),
      'listings carry no text',
    );
    assert.deepEqual(
      (await app.inject('/runs?verdict=fail')).json().runs.map((r: { id: string }) => r.id),
      ['run-1', 'earlier'],
    );

    const show = async (id: string) => {
      const res = await app.inject(`/runs/${id}`);
      return { status: res.statusCode, content: res.statusCode === 200 ? (res.json().samples[0].content as string) : null };
    };
    assert.deepEqual(await show('run-3'), { status: 200, content: HEALTHY }, 'in memory');
    assert.deepEqual(await show('run-1'), { status: 200, content: COLLAPSED }, 'evicted from memory, read from disk');
    assert.deepEqual(
      await show('earlier'),
      { status: 200, content: 'text of an earlier process' },
      'stored by an earlier process, read from disk',
    );
    assert.equal((await show('run-2')).status, 404, 'evicted and never stored');
  } finally {
    await app.close();
  }
});

test('every stored run /runs lists opens, as JSON and as a page, however damaged its file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'coherency-damaged-'));
  dirs.push(dir);
  const head = (id: string, sample: Record<string, unknown>) =>
    JSON.stringify({
      format: 2,
      run: { id, target: 't', probe: 'p', verdict: 'fail', trigger: 'schedule', startedAt: '2026-01-01T00:00:00.000Z', samples: [sample] },
    });
  // a text line cut short by a crash; a head whose reasons is a string and whose metrics are half there
  await writeFile(
    join(dir, '20260101T000000000Z_cut.json'),
    `${head('cut', { verdict: 'fail', reasons: [] })}\n{"samples":[{"content":"the outp`,
  );
  await writeFile(
    join(dir, '20260101T000001000Z_odd.json'),
    `${head('odd', { verdict: 'fail', reasons: 'content: sentence_loop', metrics: { content: { collapseOnset: 'x', repeatPeriod: {} } } })}\n{"samples":[{"content":"some text"}]}\n`,
  );
  const store = createRunStore({ dir, maxRuns: 50, maxBytes: 10_000_000, logger: silentLogger });
  assert.equal(await store.open(), 2);
  const history = new RunHistory({ maxRuns: 50, maxBytes: 1_000_000 }, store);
  const { app } = testApp(testConfig(), fakeStream({}).fn, { history });
  try {
    const listed = (await app.inject('/runs')).json().runs.map((r: { id: string }) => r.id);
    assert.deepEqual(listed, ['odd', 'cut']);
    for (const id of listed) {
      const json = await app.inject(`/runs/${id}`);
      assert.equal(json.statusCode, 200, `${id} as JSON`);
      const page = await app.inject(`/runs/${id}?format=html`);
      assert.equal(page.statusCode, 200, `${id} as a page: ${page.body.slice(0, 300)}`);
    }
    assert.match((await app.inject('/runs/cut')).json().samples[0].notes.join(' '), /stored output text could not be read/);
    assert.match((await app.inject('/runs/odd?format=html')).body, /content: sentence_loop|stored record is damaged/);
  } finally {
    await app.close();
  }
});
