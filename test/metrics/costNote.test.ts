// README's cost note, kept true: the series one target x probe costs Prometheus after a run
// (with and without reasoning text), and the output tokens a day of the probes built from
// OPENAI_BASE_URL.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import cron from 'node-cron';
import { DEFAULTS } from '../../src/config/defaults.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { scheduleIntervalSeconds } from '../../src/scheduler/createScheduler.js';
import { initSeries, recordRunEnd, recordSample } from '../../src/metrics/recordRun.js';
import { judgeSample } from '../../src/probe/judgeSample.js';
import type { RunResult, SampleResult } from '../../src/probe/probeTypes.js';
import { streamResult, testProbe } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';
import { repoPath } from '../helpers/repoRoot.js';

/** Series with target="t" in the exposition after one run of the given samples. */
async function seriesAfter(samples: SampleResult[]): Promise<number> {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 'x', defaultMetrics: false });
  initSeries(metrics, 't', 'p');
  for (const s of samples) recordSample(metrics, 't', 'p', s);
  const run = { id: 'r', target: 't', probe: 'p', verdict: samples[0]!.verdict, trigger: 'schedule', startedAt: new Date(0).toISOString(), durationSeconds: 1, samples } as RunResult;
  recordRunEnd(metrics, run, 1);
  const text = await registry.metrics();
  return text.split('\n').filter((l) => !l.startsWith('#') && l.includes('target="t"')).length;
}

test("README's cost note gives the series one target x probe costs", async () => {
  const probe = testProbe();
  const content = healthyProse(1500, 3);
  const plain = await seriesAfter([judgeSample(streamResult({ content, gapsSeconds: [0.01, 0.02] }), probe, 0)]);
  const reasoning = await seriesAfter([judgeSample(streamResult({ content, reasoning: healthyProse(800, 4) }), probe, 0)]);
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const m = /costs about \*\*(\d+) series\*\* per target and probe \((\d+) for a model that streams reasoning\)/.exec(readme);
  assert.ok(m, `README states the series cost per target and probe (measured ${plain} and ${reasoning})`);
  assert.deepEqual([Number(m[1]), Number(m[2])], [plain, reasoning], `measured ${plain} and ${reasoning}`);
});

test("README's cost note gives the output tokens a day of the default probes", () => {
  let perDay = 0;
  for (const p of DEFAULTS.envFallback.probes) {
    const task = cron.createTask(p.schedule, () => {});
    const interval = scheduleIntervalSeconds(task);
    task.destroy();
    assert.ok(interval, p.schedule);
    perDay += (86_400 / interval) * p.maxTokens;
  }
  const readme = readFileSync(repoPath('README.md'), 'utf8');
  const m = /at most \*\*([\d,]+) output tokens a day\*\* per target/.exec(readme);
  assert.ok(m, `README states the tokens a day (computed ${perDay})`);
  assert.equal(Number(m[1]!.replace(/,/g, '')), perDay);
});
