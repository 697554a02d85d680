import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/createMetrics.js';
import { CONFIG_KEYS } from '../src/config/validateConfig.js';
import { repoPath } from './helpers/repoRoot.js';

const readme = readFileSync(repoPath('README.md'), 'utf8');

test('README documents every exported metric, and no metric that does not exist', () => {
  const registry = new Registry();
  createMetrics(registry, { version: 't', defaultMetrics: false });
  const names = registry.getMetricsAsArray().map((m) => m.name);
  for (const name of names) assert.ok(readme.includes(`| \`${name}\` |`), `README misses ${name}`);
  const documented = [...readme.matchAll(/^\| `(coherency_[a-z_]+)` \|/gm)].map((m) => m[1]);
  for (const name of documented) assert.ok(names.includes(name!), `README documents ${name}, which does not exist`);
});

test('README config table names every top-level section and every target and probe key', () => {
  for (const key of CONFIG_KEYS.target) assert.match(readme, new RegExp(`targets\\[\\]\\.${key}\\b`), `targets[].${key}`);
  for (const key of CONFIG_KEYS.probe) {
    if (key === 'prompt' || key === 'messages') continue;
    assert.match(readme, new RegExp(`probes\\[\\]\\.${key}\\b`), `probes[].${key}`);
  }
  for (const key of CONFIG_KEYS.server) assert.match(readme, new RegExp(`server\\.${key}\\b`), `server.${key}`);
});
