import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { exportedChannels, initSeries, recordRunEnd, recordSample } from '../../src/metrics/recordRun.js';
import { errorSample, judgeSample } from '../../src/probe/judgeSample.js';
import { worstVerdict, type RunResult, type SampleResult } from '../../src/probe/probeTypes.js';
import { streamResult, testProbe } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

test('a sample without reasoning clears the reasoning gauges of the one before', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const probe = testProbe();
  const content = healthyProse(1500, 3);
  const looping = judgeSample(streamResult({ content, reasoning: 'Let me check again. '.repeat(100) }), probe, 0);
  recordSample(metrics, 't', 'p', looping);
  const coverage = async () =>
    (await registry.getSingleMetric('coherency_last_output_repeat_coverage_ratio')!.get()).values.find(
      (v) => v.labels['channel'] === 'reasoning',
    )?.value;
  assert.ok((await coverage())! > 0.9);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content }), probe, 1));
  assert.equal(await coverage(), undefined);
});

test('coherency_probe_samples_total counts each sample; coherency_probe_runs_total, deprecated, repeats it until 0.3.0', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  initSeries(metrics, 't', 'p');
  initSeries(metrics, 't', 'sweep', [0, 0.6]);
  const probe = testProbe();
  const content = healthyProse(1500, 3);
  for (let i = 0; i < 3; i++) recordSample(metrics, 't', 'p', judgeSample(streamResult({ content }), probe, i));
  recordSample(metrics, 't', 'sweep', { ...judgeSample(streamResult({ content }), probe, 0), temperature: 0.6 }, true);
  const values = async (name: string) =>
    (await registry.getSingleMetric(name)!.get()).values.map((v) => `${JSON.stringify(v.labels)} ${v.value}`).sort();
  const samples = await values('coherency_probe_samples_total');
  assert.ok(samples.includes('{"target":"t","probe":"p","verdict":"ok"} 3'), samples.join('\n'));
  assert.ok(samples.includes('{"target":"t","probe":"sweep","verdict":"ok","temperature":"0.6"} 1'), samples.join('\n'));
  // created at 0 for every verdict (and temperature), as the old name was
  assert.equal(samples.length, 4 + 4 * 2);
  assert.deepEqual(await values('coherency_probe_runs_total'), samples);
  const help = (name: string) => (registry.getSingleMetric(name) as unknown as { help: string }).help;
  assert.match(help('coherency_probe_runs_total'), /^deprecated: use coherency_probe_samples_total; removed in 0\.3\.0/);
  assert.doesNotMatch(help('coherency_probe_samples_total'), /deprecated/);
});

test('an errored sample moves only the run, error and duration series, never a quality one', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const timedOut = judgeSample(
    streamResult({ content: 'The first five tokens', outputTokens: 5, error: { type: 'timeout_idle', message: 'no token for 60 s' } }),
    testProbe(),
    0,
  );
  assert.equal(timedOut.verdict, 'error');
  recordSample(metrics, 't', 'p', timedOut);
  const seriesOf = async (name: string) => (await registry.getSingleMetric(name)!.get()).values.filter((v) => v.labels['target'] === 't');
  assert.ok((await seriesOf('coherency_probe_errors_total')).length > 0);
  assert.ok((await seriesOf('coherency_probe_duration_seconds')).length > 0);
  let checked = 0;
  for (const m of registry.getMetricsAsArray()) {
    if (/^coherency_(last_output_|output_|time_to_first)/.test(m.name)) {
      const values = (await seriesOf(m.name)).filter((v) => !('le' in v.labels) || (v.value ?? 0) > 0);
      assert.deepEqual(values, [], `${m.name} has a series after an errored sample`);
      checked++;
    }
  }
  assert.ok(checked >= 10, `${checked} quality metrics checked`);
});

test('coherency_probe_runs_since_last_fail: 0 after a run with a failed sample, +1 per run without; all-error runs do not count', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const probe = testProbe();
  const ok = judgeSample(streamResult({ content: healthyProse(1500, 3) }), probe, 0);
  const fail = judgeSample(streamResult({ content: 'The same sentence again and again. '.repeat(200) }), probe, 1);
  const error = errorSample(2, 'connect', 'refused');
  assert.equal(ok.verdict, 'ok');
  assert.equal(fail.verdict, 'fail');
  const run = (...samples: SampleResult[]): RunResult => ({
    id: 'r',
    target: 't',
    probe: 'p',
    verdict: worstVerdict(samples.map((s) => s.verdict)),
    trigger: 'schedule',
    startedAt: new Date(0).toISOString(),
    durationSeconds: 1,
    samples,
  });
  const value = async () => (await registry.getSingleMetric('coherency_probe_runs_since_last_fail')!.get()).values[0]?.value;
  recordRunEnd(metrics, run(error), 1);
  assert.equal(await value(), undefined, 'absent until a run with an analysed sample');
  recordRunEnd(metrics, run(ok), 2);
  assert.equal(await value(), 1, 'counted from the start when nothing failed');
  recordRunEnd(metrics, run(ok, fail, error), 3);
  assert.equal(await value(), 0);
  recordRunEnd(metrics, run(error), 4);
  assert.equal(await value(), 0, 'a run that only errored leaves it');
  recordRunEnd(metrics, run(ok), 5);
  recordRunEnd(metrics, run(ok, error), 6);
  assert.equal(await value(), 2);
});

test('coherency_largest_inter_token_gap_seconds: one observation per sample, its largest gap', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const probe = testProbe();
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content: healthyProse(1500, 3), maxGapSeconds: 3.2 }), probe, 0));
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content: healthyProse(1500, 4), maxGapSeconds: 0.02 }), probe, 1));
  recordSample(metrics, 't', 'p', errorSample(2, 'timeout_idle', 'no token for 60 s'));
  const values = (await registry.getSingleMetric('coherency_largest_inter_token_gap_seconds')!.get()).values as {
    metricName?: string;
    labels: Record<string, string | number>;
    value: number;
  }[];
  assert.equal(values.find((v) => v.metricName?.endsWith('_count'))?.value, 2);
  assert.ok(Math.abs((values.find((v) => v.metricName?.endsWith('_sum'))?.value ?? 0) - 3.22) < 1e-9);
  assert.equal(values.find((v) => v.labels['le'] === 2.5)?.value, 1);
});

/** Channels with a series of the metric, for target t. */
async function channelsOf(registry: Registry, name: string): Promise<string[]> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return [];
  const values = (await metric.get()).values.filter((v) => v.labels['target'] === 't');
  return [...new Set(values.map((v) => String(v.labels['channel'])))].sort();
}

test('metrics.detail basic: content always, reasoning only with reasoning text, never combined; quality histograms on content only', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false, detail: 'basic' });
  const probe = testProbe();
  const content = healthyProse(1500, 3);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content }), probe, 0));
  assert.deepEqual(await channelsOf(registry, 'coherency_last_output_compression_ratio'), ['content']);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content, reasoning: healthyProse(800, 4) }), probe, 1));
  assert.deepEqual(await channelsOf(registry, 'coherency_last_output_compression_ratio'), ['content', 'reasoning']);
  assert.deepEqual(await channelsOf(registry, 'coherency_output_compression_ratio'), ['content']);
  assert.match(
    await registry.metrics(),
    /coherency_output_compression_ratio_count\{target="t",probe="p",channel="content"\} 2\n/,
    'one observation per sample, of the content',
  );
  for (const name of [
    'coherency_output_longest_word_run',
    'coherency_last_output_whitespace_ratio',
    'coherency_time_to_first_content_token_seconds',
    'coherency_inter_token_latency_seconds',
  ]) {
    assert.equal(registry.getSingleMetric(name), undefined, `${name} is registered under basic`);
  }
  // The scheduler hands every gap to this; under basic it keeps nothing.
  metrics.interTokenLatency.labels({ target: 't', probe: 'p' }).observe(0.02);
  assert.ok(!(await registry.metrics()).includes('coherency_inter_token_latency_seconds'));
});

test('metrics.detail full: every figure and channel, combined only for a sample with reasoning text', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false, detail: 'full' });
  const probe = testProbe();
  const content = healthyProse(1500, 3);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content, reasoning: healthyProse(800, 4) }), probe, 0));
  assert.deepEqual(await channelsOf(registry, 'coherency_last_output_whitespace_ratio'), ['combined', 'content', 'reasoning']);
  assert.deepEqual(await channelsOf(registry, 'coherency_output_longest_word_run'), ['combined', 'content', 'reasoning']);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content }), probe, 1));
  assert.deepEqual(
    await channelsOf(registry, 'coherency_last_output_whitespace_ratio'),
    ['content'],
    'no stale reasoning or combined gauge',
  );
  metrics.interTokenLatency.labels({ target: 't', probe: 'p' }).observe(0.02);
  assert.match(await registry.metrics(), /coherency_inter_token_latency_seconds_count\{target="t",probe="p"\} 1/);
});

test('exportedChannels: content alone without reasoning; reasoning under basic, reasoning and combined under full', () => {
  assert.deepEqual(exportedChannels('basic', false), ['content']);
  assert.deepEqual(exportedChannels('full', false), ['content']);
  assert.deepEqual(exportedChannels('basic', true), ['content', 'reasoning']);
  assert.deepEqual(exportedChannels('full', true), ['content', 'reasoning', 'combined']);
});
