import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Registry } from 'prom-client';
import { forgetSeries } from '../../src/metrics/recordRun.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const HEALTHY = healthyProse(2500, 7);
const COLLAPSED = `${healthyProse(900, 3)}\n\n${'The system keeps repeating this exact sentence again. '.repeat(120)}`;

function setup(maxConcurrentManualRuns = 4) {
  const stream = fakeStream({
    healthy: { content: HEALTHY },
    collapse: { content: COLLAPSED },
    blank: { content: '   \n\n   \n' },
    down: { content: '', error: { type: 'connect', message: 'connection refused (ECONNREFUSED)' }, httpStatus: null, outputTokens: 0 },
  });
  const config = testConfig({
    server: {
      host: '127.0.0.1',
      port: 0,
      authToken: null,
      metricsAuth: false,
      maxConcurrentManualRuns,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    },
    targets: [
      testTarget({ name: 'good', model: 'healthy' }),
      testTarget({ name: 'bad', model: 'collapse' }),
      testTarget({ name: 'blank', model: 'blank' }),
      testTarget({ name: 'down', model: 'down', probes: ['short'] }),
    ],
  });
  return { ...testApp(config, stream.fn), stream };
}

const sample = async (registry: Registry, name: string, labels: Record<string, string>) => {
  const m = await registry.getSingleMetric(name)!.get();
  const v = m.values.find((x) => Object.entries(labels).every(([k, val]) => x.labels[k] === val));
  return v?.value;
};

describe('POST /probe (JSON)', () => {
  test('a healthy stream is ok and moves the counters and gauges', async () => {
    const { app, registry } = setup();
    const res = await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.verdict, 'ok', JSON.stringify(body.samples[0].reasons));
    assert.equal(body.target, 'good');
    assert.equal(body.samples.length, 1);
    const s = body.samples[0];
    assert.equal(s.verdict, 'ok');
    assert.equal(s.finishReason, 'length');
    assert.ok(s.outputTokens > 1000);
    assert.ok(s.metrics.content.compressionRatio > 0.2);
    assert.equal(s.content, undefined, 'the output text is not in /probe answers');
    assert.equal(await sample(registry, 'coherency_probe_samples_total', { target: 'good', probe: 'short', verdict: 'ok' }), 1);
    assert.equal(await sample(registry, 'coherency_probe_success', { target: 'good', probe: 'short' }), 1);
    assert.equal(await sample(registry, 'coherency_degeneration_ratio', { target: 'good', probe: 'short' }), 0);
    assert.ok((await sample(registry, 'coherency_probe_last_run_timestamp_seconds', { target: 'good' }))! > 1.7e9);
    assert.equal(
      await sample(registry, 'coherency_last_output_collapse_onset_ratio', { target: 'good' }),
      undefined,
      'no collapse, no onset',
    );
  });

  test('a stream that collapses into a repeated sentence fails', async () => {
    const { app, registry } = setup();
    const body = (await app.inject({ method: 'POST', url: '/probe?target=bad&probe=long', payload: {} })).json();
    assert.equal(body.verdict, 'fail');
    assert.ok(body.samples[0].reasons.length > 0);
    const f = body.samples[0].findings.find((x: { severity: string }) => x.severity === 'fail');
    assert.equal(f.channel, 'content');
    assert.ok(f.atChar > 0 && f.atToken > 0 && f.excerpt.length > 10, JSON.stringify(f));
    assert.equal(await sample(registry, 'coherency_degeneration_reasons_total', { target: 'bad', probe: 'long', kind: f.kind }), 1);
    assert.equal(await sample(registry, 'coherency_probe_samples_total', { target: 'bad', probe: 'long', verdict: 'fail' }), 1);
    assert.equal(await sample(registry, 'coherency_probe_success', { target: 'bad', probe: 'long' }), 0);
    assert.equal(await sample(registry, 'coherency_degeneration_ratio', { target: 'bad', probe: 'long' }), 1);
    const onset = await sample(registry, 'coherency_last_output_collapse_onset_ratio', {
      target: 'bad',
      probe: 'long',
      channel: 'content',
    });
    assert.ok(onset! > 0.3 && onset! < 0.7, `collapse onset at ${onset} of the output`);
  });

  test('whitespace-only output fails', async () => {
    const { app } = setup();
    const body = (await app.inject({ method: 'POST', url: '/probe?target=blank&probe=short', payload: {} })).json();
    assert.equal(body.verdict, 'fail');
  });

  test('a connect error is an error sample with its type counted', async () => {
    const { app, registry } = setup();
    const body = (await app.inject({ method: 'POST', url: '/probe?target=down&probe=short', payload: {} })).json();
    assert.equal(body.verdict, 'error');
    assert.equal(body.samples[0].error.type, 'connect');
    assert.equal(await sample(registry, 'coherency_probe_errors_total', { target: 'down', type: 'connect' }), 1);
    assert.equal(await sample(registry, 'coherency_probe_samples_total', { target: 'down', verdict: 'error' }), 1);
  });

  test('unknown target or probe is 404 naming the known ones; missing parameter is 400', async () => {
    const { app } = setup();
    const t = await app.inject({ method: 'POST', url: '/probe?target=nope&probe=short', payload: {} });
    assert.equal(t.statusCode, 404);
    assert.match(t.json().error.message, /unknown target "nope" \(known: good, bad, blank, down\)/);
    const p = await app.inject({ method: 'POST', url: '/probe?target=good&probe=nope', payload: {} });
    assert.equal(p.statusCode, 404);
    assert.match(p.json().error.message, /known: short, long/);
    const q = await app.inject({ method: 'POST', url: '/probe?target=good', payload: {} });
    assert.equal(q.statusCode, 400);
    assert.match(q.json().error.message, /probe/);
  });

  test('the same target+probe already running is 409; another pair still runs', async () => {
    const { app, stream } = setup();
    stream.hold();
    const first = app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    await new Promise((r) => setTimeout(r, 20));
    const second = await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    assert.equal(second.statusCode, 409);
    stream.release();
    assert.equal((await first).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} })).statusCode, 200);
  });

  test('beyond maxConcurrentManualRuns, another pair gets 429', async () => {
    const { app, stream } = setup(1);
    stream.hold();
    const first = app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    await new Promise((r) => setTimeout(r, 20));
    const second = await app.inject({ method: 'POST', url: '/probe?target=bad&probe=short', payload: {} });
    assert.equal(second.statusCode, 429);
    assert.match(second.json().error.message, /limit 1/);
    stream.release();
    assert.equal((await first).statusCode, 200);
  });
});

test('a run that finishes after a reload removed its target records no series', async () => {
  const { app, stream, service, registry, metrics } = setup();
  stream.hold();
  const running = app.inject({ method: 'POST', url: '/probe?target=bad&probe=short', payload: {} });
  for (let i = 0; i < 200 && stream.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  const config = service.currentConfig;
  // What the daemon's reload does: swap the config, then delete the removed pairs' series.
  service.setConfig({ ...config, targets: config.targets.filter((t) => t.name !== 'bad') });
  await forgetSeries(metrics, 'bad');
  stream.release();
  assert.equal((await running).statusCode, 200, 'the run itself still answers');
  const body = await registry.metrics();
  assert.doesNotMatch(body, /target="bad"/);
});

describe('other routes', () => {
  test('/metrics serves the exposition format with the documented metrics', async () => {
    const { app } = setup();
    await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    const res = await app.inject('/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/plain/);
    for (const name of [
      'coherency_probe_samples_total',
      'coherency_probe_success',
      'coherency_probe_last_run_timestamp_seconds',
      'coherency_probe_duration_seconds_bucket',
      'coherency_time_to_first_token_seconds_bucket',
      'coherency_output_tokens_bucket',
      'coherency_output_compression_ratio_bucket',
      'coherency_last_output_compression_ratio',
      'coherency_degeneration_ratio',
    ]) {
      assert.match(res.body, new RegExp(`^${name}\\{`, 'm'), name);
    }
  });

  test('/runs lists runs newest first and /runs/:id returns the text', async () => {
    const { app } = setup();
    await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    await app.inject({ method: 'POST', url: '/probe?target=bad&probe=short', payload: {} });
    const list = (await app.inject('/runs')).json().runs;
    assert.deepEqual(
      list.map((r: { target: string }) => r.target),
      ['bad', 'good'],
    );
    const failing = (await app.inject('/runs?verdict=fail')).json().runs;
    assert.equal(failing.length, 1);
    const run = (await app.inject(`/runs/${failing[0].id}`)).json();
    assert.equal(run.samples[0].content, COLLAPSED);
    assert.equal((await app.inject('/runs/nope')).statusCode, 404);
    assert.equal((await app.inject('/runs?verdict=maybe')).statusCode, 400);
  });

  test('health, readiness and the landing page', async () => {
    const { app } = setup();
    assert.equal((await app.inject('/-/healthy')).statusCode, 200);
    assert.equal((await app.inject('/-/ready')).statusCode, 200);
    const index = await app.inject('/');
    assert.equal(index.statusCode, 200);
    assert.match(
      index.body,
      /<form class="inline" method="post" action="\/probe"><input type="hidden" name="target" value="good"><input type="hidden" name="probe" value="short">/,
    );
  });
});
