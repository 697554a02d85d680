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
