import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { renderMetrics } from '../../src/http/renderMetrics.js';
import { countLoopTurns } from '../helpers/loopTurns.js';

test('renders what registry.metrics() renders, giving the event loop a turn between metrics', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't' });
  for (let i = 0; i < 20; i++) {
    metrics.runs.inc({ target: `t${i}`, probe: 'p', verdict: 'ok' });
    metrics.duration.observe({ target: `t${i}`, probe: 'p' }, i / 3);
    metrics.skipped.inc({ target: `t${i}`, probe: 'p', reason: 'overlap' });
  }
  const loop = countLoopTurns();
  const text = await renderMetrics(registry);
  loop.stop();
  // process metrics (CPU, memory, event-loop lag) move between two renderings: compare ours
  const ours = (t: string) =>
    t
      .split('\n\n')
      .filter((block) => block.includes('coherency_'))
      .join('\n\n');
  assert.equal(ours(text), ours(await registry.metrics()));
  assert.ok(text.endsWith('\n'));
  assert.ok(loop.turns >= registry.getMetricsAsArray().length - 1, `the loop turned between metrics (${loop.turns} turns)`);
});
