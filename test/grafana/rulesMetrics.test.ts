// promtool tests the rules against made-up series; this checks those series' names and
// labels are the ones the exporter really exports, so a renamed metric breaks a test. The
// rules must work with the default metrics.detail (basic): they are checked against its series.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { parse } from 'yaml';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { repoRoot } from './dashboardQueries.js';
import { TARGET_LABELS, deprecatedMetrics, exportedSeries, metricNamesIn, recordedNamesIn, selectorsIn } from './exportedMetrics.js';

interface RuleFile {
  groups: { name: string; rules: { alert?: string; record?: string; expr: string; labels?: Record<string, string> }[] }[];
}
interface RuleTestFile {
  tests: { name: string; input_series?: { series: string }[] }[];
}

const root = repoRoot();
const rules = parse(readFileSync(join(root, 'deploy/prometheus/rules.yml'), 'utf8')) as RuleFile;
const ruleTests = parse(readFileSync(join(root, 'deploy/prometheus/rules.test.yml'), 'utf8')) as RuleTestFile;
const series = exportedSeries('basic');

test('alert rules reference only metrics exported by default (metrics.detail: basic) and their labels', () => {
  const all = rules.groups.flatMap((g) => g.rules);
  assert.ok(all.length > 0);
  for (const rule of all) {
    const where = rule.alert ?? rule.record ?? '?';
    for (const name of metricNamesIn(rule.expr)) assert.ok(series.has(name), `${where}: ${name} is not exported`);
    for (const sel of selectorsIn(rule.expr)) {
      for (const label of sel.labels) {
        assert.ok(series.get(sel.name)?.has(label) || TARGET_LABELS.includes(label), `${where}: ${sel.name} has no label ${label}`);
      }
    }
  }
});

test('no rule, and no series of the rule tests, is a deprecated metric', () => {
  const deprecated = deprecatedMetrics();
  assert.ok(deprecated.size > 0);
  for (const rule of rules.groups.flatMap((g) => g.rules))
    for (const name of metricNamesIn(rule.expr)) assert.ok(!deprecated.has(name), `${rule.alert ?? rule.record}: ${name} is deprecated`);
  for (const t of ruleTests.tests)
    for (const s of t.input_series ?? []) {
      const name = /^[a-z_:]+/.exec(s.series)?.[0] ?? '';
      assert.ok(!deprecated.has(name), `${t.name}: ${name} is deprecated`);
    }
});

test('recorded series are named level:metric:operations and recorded before a rule of the file uses them', () => {
  const all = rules.groups.flatMap((g) => g.rules);
  const recorded = new Set<string>();
  for (const rule of all) {
    const where = rule.alert ?? rule.record ?? '?';
    for (const name of recordedNamesIn(rule.expr)) assert.ok(recorded.has(name), `${where}: ${name} is not recorded above it`);
    if (rule.record) {
      assert.match(rule.record, /^[a-z_]+:coherency_[a-z_]+:[a-z0-9_]+$/, rule.record);
      recorded.add(rule.record);
    }
  }
  assert.ok(recorded.size > 0);
});

/** GitHub's (and GitLab's) anchor for a Markdown heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

test('every alert has a severity, a summary, a description, a runbook_url into docs/runbook.md, and a promtool test', () => {
  const tested = readFileSync(join(root, 'deploy/prometheus/rules.test.yml'), 'utf8');
  const runbook = readFileSync(join(root, 'docs/runbook.md'), 'utf8');
  const anchors = new Set([...runbook.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
  const bases = new Set<string>();
  for (const rule of rules.groups.flatMap((g) => g.rules).filter((r) => r.alert)) {
    const r = rule as typeof rule & { annotations?: Record<string, string> };
    assert.match(r.labels?.severity ?? '', /^(critical|warning|info)$/, r.alert);
    for (const key of ['summary', 'description', 'runbook_url']) assert.ok(r.annotations?.[key], `${r.alert}: no ${key}`);
    assert.equal(r.annotations?.['runbook'], undefined, `${r.alert}: runbook_url, not runbook`);
    const url = new URL(r.annotations?.['runbook_url'] ?? ''); // throws unless absolute
    assert.equal(url.protocol, 'https:', `${r.alert}: ${url.href}`);
    assert.ok(url.pathname.endsWith('/runbook.md'), `${r.alert}: ${url.href} is not the runbook`);
    assert.ok(anchors.has(url.hash.slice(1)), `${r.alert}: docs/runbook.md has no heading for ${url.hash}`);
    assert.equal(url.hash, `#${r.alert?.toLowerCase()}`, `${r.alert}: the anchor is the alert's name`);
    bases.add(url.href.slice(0, url.href.length - url.hash.length));
    assert.ok(tested.includes(`alertname: ${r.alert}`), `${r.alert} has no promtool test`);
  }
  assert.equal(bases.size, 1, `runbook_url under one base, so that one command changes it: ${[...bases].join(', ')}`);
});

test('promtool input series use exported names with their labels', () => {
  for (const t of ruleTests.tests) {
    for (const { series: s } of t.input_series ?? []) {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\}$/.exec(s);
      assert.ok(m, `${t.name}: cannot parse ${s}`);
      const name = m[1] as string;
      if (name === 'up') continue;
      const known = series.get(name);
      assert.ok(known, `${t.name}: ${name} is not exported`);
      const labels = [...(m[2] as string).matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)].map((l) => l[1] as string);
      for (const label of labels) {
        assert.ok(known.has(label) || TARGET_LABELS.includes(label), `${t.name}: ${name} has no label ${label}`);
      }
      // temperature is set only on probes that sweep temperatures: a series may leave it out
      for (const label of known)
        assert.ok(labels.includes(label) || label === 'le' || label === 'temperature', `${t.name}: ${name} lacks label ${label}`);
    }
  }
});

test('CoherencyOtlpExportDropping reads only the otlp counters, which createMetrics registers without a series', async () => {
  // With otlp off the daemon never sets a label set of them (it sets them to 0 only when it
  // exports: src/daemon.ts), so they export no sample and the alert has nothing to fire on;
  // test/otel/otlpExport.test.ts checks a daemon's /metrics, rules.test.yml the rule.
  const rule = rules.groups.flatMap((g) => g.rules).find((r) => r.alert === 'CoherencyOtlpExportDropping');
  assert.ok(rule, 'no CoherencyOtlpExportDropping in rules.yml');
  assert.deepEqual(metricNamesIn(rule.expr), ['coherency_otlp_dropped_records_total']);
  const registry = new Registry();
  createMetrics(registry, { version: 'test', detail: 'basic' });
  const text = await registry.metrics();
  for (const name of ['coherency_otlp_exported_records_total', 'coherency_otlp_dropped_records_total']) {
    assert.ok(text.includes(`# TYPE ${name} counter`), `${name} not registered`);
    assert.deepEqual(
      text.split('\n').filter((l) => l.startsWith(name)),
      [],
      `${name} has samples before the daemon exports`,
    );
  }
});
