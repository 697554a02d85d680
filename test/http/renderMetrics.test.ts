import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { RENDER_SLICE_MS, renderMetrics, sharedRendering } from '../../src/http/renderMetrics.js';
import { countLoopTurns } from '../helpers/loopTurns.js';

function filled(): Registry {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't' });
  for (let i = 0; i < 20; i++) {
    metrics.runs.inc({ target: `t${i}`, probe: 'p', verdict: 'ok' });
    metrics.duration.observe({ target: `t${i}`, probe: 'p' }, i / 3);
    metrics.skipped.inc({ target: `t${i}`, probe: 'p', reason: 'overlap' });
  }
  return registry;
}

/** A clock that moves 1 ms each time it is read: the rendering's slices are then counted, not timed. */
function steppingClock() {
  let t = 0;
  return () => t++;
}

// process metrics (CPU, memory, event-loop lag) move between two renderings: compare ours
const ours = (t: string) =>
  t
    .split('\n\n')
    .filter((block) => block.includes('coherency_'))
    .join('\n\n');

test('renders what registry.metrics() renders, giving the event loop a turn once a slice of rendering time is used', async () => {
  const registry = filled();
  const count = registry.getMetricsAsArray().length;
  const loop = countLoopTurns();
  const text = await renderMetrics(registry, { now: steppingClock() });
  loop.stop();
  assert.equal(ours(text), ours(await registry.metrics()));
  assert.ok(text.endsWith('\n'));
  // each metric reads the clock once (1 ms): a turn every RENDER_SLICE_MS metrics, not after each one
  // (a turn per metric made a scrape under load wait for ~70 busy turns: 2.8 s)
  const slices = Math.floor(count / RENDER_SLICE_MS);
  assert.ok(loop.turns >= slices - 1 && loop.turns <= slices + 2, `${loop.turns} turns for ${count} metrics`);
});

test('scrapes that arrive during a rendering share it; a later scrape gets a fresh one', async () => {
  const registry = filled();
  let reads = 0;
  const read = registry.getMetricsAsArray.bind(registry);
  registry.getMetricsAsArray = () => {
    reads++;
    return read();
  };
  const scrape = sharedRendering(registry);
  const [a, b, c] = await Promise.all([scrape(), scrape(), scrape()]);
  assert.equal(reads, 1, 'one rendering for three concurrent scrapes');
  assert.equal(a, b);
  assert.equal(b, c);
  await scrape();
  assert.equal(reads, 2);
});
