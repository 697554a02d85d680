import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/createMetrics.js';
import { CONFIG_KEYS } from '../src/config/validateConfig.js';
import { repoPath } from './helpers/repoRoot.js';

const readme = readFileSync(repoPath('README.md'), 'utf8');

test('README names only metrics that exist, and links the full reference', () => {
  const registry = new Registry();
  createMetrics(registry, { version: 't', defaultMetrics: false, detail: 'full' });
  const names = registry.getMetricsAsArray().map((m) => m.name);
  const named = [...readme.matchAll(/(?<![:\w])(coherency_[a-z_]+?)(?:_bucket|_sum|_count)?\b/g)].map((m) => m[1]!);
  assert.ok(named.length > 5);
  const notMetrics = new Set(['coherency_session']); // the browser session cookie
  for (const name of new Set(named)) assert.ok(names.includes(name) || notMetrics.has(name), `README names ${name}, which does not exist`);
  assert.match(readme, /\(docs\/metrics\.md\)/);
});

test('README config table names every top-level section and every target and probe key', () => {
  for (const key of CONFIG_KEYS.target) assert.match(readme, new RegExp(`targets\\[\\]\\.${key}\\b`), `targets[].${key}`);
  for (const key of CONFIG_KEYS.probe) {
    if (key === 'prompt' || key === 'messages') continue;
    assert.match(readme, new RegExp(`probes\\[\\]\\.${key}\\b`), `probes[].${key}`);
  }
  for (const key of CONFIG_KEYS.server) assert.match(readme, new RegExp(`server\\.${key}\\b`), `server.${key}`);
  // storage.maxRuns, `.maxBytes`: a row may name a second key of the section by its dot
  for (const key of CONFIG_KEYS.storage) assert.match(readme, new RegExp(`storage\\.${key}\\b|\`\\.${key}\``), `storage.${key}`);
});
