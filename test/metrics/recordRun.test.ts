import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { recordSample } from '../../src/metrics/recordRun.js';
import { judgeSample } from '../../src/probe/judgeSample.js';
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
    (await registry.getSingleMetric('coherency_last_output_repeat_coverage_ratio')!.get()).values.find((v) => v.labels['channel'] === 'reasoning')?.value;
  assert.ok((await coverage())! > 0.9);
  recordSample(metrics, 't', 'p', judgeSample(streamResult({ content }), probe, 1));
  assert.equal(await coverage(), undefined);
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
