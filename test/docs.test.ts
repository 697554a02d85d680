// docs/metrics.md is generated (npm run docs) from the metric definitions; this keeps the
// committed file equal to what the generator writes, so the reference cannot drift.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/createMetrics.js';
import { ERROR_TYPE_MEANINGS, metricsReference } from '../src/metrics/metricsReference.js';
import { repoPath } from './helpers/repoRoot.js';

test('docs/metrics.md is what npm run docs generates', () => {
  const committed = readFileSync(repoPath('docs/metrics.md'), 'utf8');
  assert.ok(committed === metricsReference(), 'docs/metrics.md is stale: run npm run docs and commit it');
});

test('docs/metrics.md documents every exported metric, of the full set', () => {
  const registry = new Registry();
  createMetrics(registry, { version: 't', defaultMetrics: false, detail: 'full' });
  const doc = metricsReference();
  for (const m of registry.getMetricsAsArray()) assert.ok(doc.includes(`| \`${m.name}\` |`), m.name);
});

test('docs/metrics.md gives every error type its meaning and one line of what to check', () => {
  const doc = metricsReference();
  for (const type of Object.keys(ERROR_TYPE_MEANINGS)) {
    const row = doc.split('\n').find((l) => l.startsWith(`| \`${type}\` |`));
    assert.ok(row, `no row for ${type}`);
    const cells = row.split(' | ').map((c) => c.replace(/^\|\s*|\s*\|$/g, '').trim());
    assert.equal(cells.length, 3, `${type}: type, meaning, what to check: ${row}`);
    assert.ok(
      cells.every((c) => c.length > 3),
      `${type}: an empty cell: ${row}`,
    );
  }
});
