// The README and the documents it links keep true: the metric names they give exist, the
// config reference names every key, the links between them resolve. The cost figures:
// test/metrics/costNote.test.ts; the CI snippets: test/integration/packageInstall.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/createMetrics.js';
import { CONFIG_KEYS } from '../src/config/validateConfig.js';
import { repoPath } from './helpers/repoRoot.js';

/** The hand-written documents (docs/metrics.md is generated: test/docs.test.ts). */
const DOCS = [
  'README.md',
  'CHANGELOG.md',
  'docs/configuration.md',
  'docs/conformance.md',
  'docs/detection.md',
  'docs/benchmarks.md',
  'docs/development.md',
  'docs/security.md',
  'docs/baselines.md',
];
const read = (path: string) => readFileSync(repoPath(path), 'utf8');
const readme = read('README.md');

test('README is a front door: at most 260 lines, linking the documents the details moved to', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 260, `README.md has ${lines} lines`);
  for (const doc of [
    'docs/configuration.md',
    'docs/detection.md',
    'docs/metrics.md',
    'docs/runbook.md',
    'docs/benchmarks.md',
    'docs/development.md',
    'docs/security.md',
    'CHANGELOG.md',
  ]) {
    assert.ok(readme.includes(`](${doc})`), `README links ${doc}`);
  }
});

test('the documents name only metrics that exist', () => {
  const registry = new Registry();
  createMetrics(registry, { version: 't', defaultMetrics: false, detail: 'full' });
  const names = registry.getMetricsAsArray().map((m) => m.name);
  const notMetrics = new Set(['coherency_session']); // the browser session cookie
  for (const doc of DOCS) {
    const named = [...read(doc).matchAll(/(?<![:\w])(coherency_[a-z_]+?)(?:_bucket|_sum|_count)?\b/g)].map((m) => m[1]!);
    for (const name of new Set(named))
      assert.ok(names.includes(name) || notMetrics.has(name), `${doc} names ${name}, which does not exist`);
  }
  assert.match(readme, /\(docs\/metrics\.md\)/);
});

test('every relative link of the documents points at a file that exists', () => {
  for (const doc of DOCS) {
    for (const m of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      assert.ok(existsSync(repoPath(join(dirname(doc), target))), `${doc} links ${target}, which does not exist`);
    }
  }
});

test('docs/configuration.md names every top-level section and every target and probe key', () => {
  const reference = read('docs/configuration.md');
  for (const key of CONFIG_KEYS.target) assert.match(reference, new RegExp(`targets\\[\\]\\.${key}\\b`), `targets[].${key}`);
  for (const key of CONFIG_KEYS.probe) {
    if (key === 'prompt' || key === 'messages') continue;
    assert.match(reference, new RegExp(`probes\\[\\]\\.${key}\\b`), `probes[].${key}`);
  }
  for (const key of CONFIG_KEYS.server) assert.match(reference, new RegExp(`server\\.${key}\\b`), `server.${key}`);
  // storage.maxRuns, `.maxBytes`: a row may name a second key of the section by its dot
  for (const key of CONFIG_KEYS.storage) assert.match(reference, new RegExp(`storage\\.${key}\\b|\`\\.${key}\``), `storage.${key}`);
});

test('no team-internal wording in the documents a user reads', () => {
  for (const doc of DOCS) {
    for (const phrase of [/\bwas \d/, /this release/i, /is \*\*not met\*\*/, /this 2-core machine/, /\bthis session\b/]) {
      assert.doesNotMatch(read(doc), phrase, `${doc}: ${phrase}`);
    }
  }
});
