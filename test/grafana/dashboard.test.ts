import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  VARIABLE_VALUES,
  allPanels,
  dashboardQueries,
  expandVariables,
  loadDashboard,
  repoRoot,
  savedDefaults,
  templateVariableQueries,
  type Dashboard,
  type DashboardVariable,
} from './dashboardQueries.js';
import {
  TARGET_LABELS,
  deprecatedMetrics,
  exportedSeries,
  metricNamesIn,
  needsFullDetail,
  recordedNamesIn,
  selectorsIn,
} from './exportedMetrics.js';

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

const dashboard: Dashboard = loadDashboard();
const series = exportedSeries('full');
const variable = (name: string): DashboardVariable => {
  const v = dashboard.templating.list.find((x) => x.name === name);
  assert.ok(v, `template variable ${name} missing`);
  return v;
};

/** Every PromQL string in the dashboard, raw: panel targets and query variables. */
function rawExpressions(): { where: string; expr: string }[] {
  const out: { where: string; expr: string }[] = [];
  for (const p of allPanels(dashboard)) {
    for (const t of p.targets ?? []) {
      if (typeof t.expr === 'string') out.push({ where: `panel ${p.id} "${p.title}" ${t.refId}`, expr: t.expr });
    }
  }
  for (const v of dashboard.templating.list) {
    if (v.type === 'query') out.push({ where: `variable ${v.name}`, expr: String(v.definition ?? '') });
  }
  for (const a of annotations()) if (typeof a.expr === 'string') out.push({ where: `annotation "${a.name}"`, expr: a.expr });
  return out;
}

interface Annotation {
  name: string;
  datasource?: unknown;
  expr?: string;
  enable?: boolean;
  builtIn?: number;
  titleFormat?: string;
  tagKeys?: string;
}

function annotations(): Annotation[] {
  return ((dashboard['annotations'] as { list?: Annotation[] } | undefined)?.list ?? []).filter((a) => a.builtIn !== 1);
}

test('the dashboard is importable: datasource input, schema version, stable uid', () => {
  assert.equal(dashboard.uid, 'coherency-exporter');
  assert.equal(dashboard.id, null);
  assert.equal(typeof dashboard.schemaVersion, 'number');
  assert.ok((dashboard.schemaVersion as number) >= 36);
  const inputs = dashboard.__inputs as { name: string; type: string; pluginId: string }[];
  assert.deepEqual(
    inputs.map((i) => [i.name, i.type, i.pluginId]),
    [['DS_PROMETHEUS', 'datasource', 'prometheus']],
  );
  const ds = variable('datasource');
  assert.equal(ds.type, 'datasource');
  assert.equal(ds.query, 'prometheus');
  assert.deepEqual((ds.current as { value: string }).value, '${DS_PROMETHEUS}');
});

test('every panel, query and query variable uses the ${datasource} variable', () => {
  for (const p of allPanels(dashboard)) {
    assert.deepEqual(p.datasource, DATASOURCE, `panel ${p.id} "${p.title}"`);
    for (const t of p.targets ?? []) assert.deepEqual(t.datasource, DATASOURCE, `panel ${p.id} target ${t.refId}`);
  }
  for (const v of dashboard.templating.list.filter((x) => x.type === 'query')) {
    assert.deepEqual(v.datasource, DATASOURCE, `variable ${v.name}`);
  }
});

test('panel ids are unique positive integers and the grid has no overlaps', () => {
  const panels = allPanels(dashboard);
  const ids = panels.map((p) => p.id);
  for (const id of ids) assert.ok(Number.isInteger(id) && (id as number) > 0, `bad id ${id}`);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids in ${ids.join(',')}`);
  const boxes = dashboard.panels.map((p) => ({ id: p.id, ...p.gridPos! }));
  for (const b of boxes) assert.ok(b.x >= 0 && b.w > 0 && b.x + b.w <= 24, `panel ${b.id} outside the 24-column grid`);
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      assert.ok(!overlap, `panels ${a.id} and ${b.id} overlap`);
    }
  }
});

test('every non-row panel has a title, a description and at least one query', () => {
  for (const p of allPanels(dashboard).filter((x) => x.type !== 'row')) {
    assert.ok(p.title, `panel ${p.id} has no title`);
    assert.ok(typeof p.description === 'string' && p.description.length > 20, `panel ${p.id} "${p.title}" has no description`);
    assert.ok((p.targets ?? []).length > 0, `panel ${p.id} "${p.title}" has no query`);
  }
});

test('target and probe variables: multi-select, All = .*, values from coherency_probe_samples_total', () => {
  const target = variable('target');
  const probe = variable('probe');
  for (const v of [target, probe]) {
    assert.equal(v.type, 'query');
    assert.equal(v.multi, true, v.name);
    assert.equal(v.includeAll, true, v.name);
    assert.equal(v.allValue, '.*', v.name);
  }
  assert.equal(target.definition, 'label_values(coherency_probe_samples_total, target)');
  assert.equal(probe.definition, 'label_values(coherency_probe_samples_total{target=~"$target"}, probe)');
  const channel = variable('channel');
  assert.equal(channel.allValue, '.*');
  assert.deepEqual(String(channel.query).split(','), ['content', 'reasoning', 'combined']);
  assert.deepEqual(templateVariableQueries(dashboard), [
    { name: 'target', label: 'target', selector: 'coherency_probe_samples_total' },
    { name: 'probe', label: 'probe', selector: 'coherency_probe_samples_total{target=~".*"}' },
  ]);
});

test('the saved variable values select what a daemon exports under metrics.detail basic and full (a first import shows data)', () => {
  const defaults = savedDefaults(dashboard);
  // what every daemon exports, whatever its detail and model: the content channel, any target and probe
  const exported: Record<string, string> = { target: 'any-target', probe: 'any-probe', channel: 'content' };
  for (const [name, value] of Object.entries(exported)) {
    const saved = defaults[name];
    assert.ok(saved !== undefined, `variable ${name} has no saved value`);
    assert.match(value, new RegExp(`^(?:${saved})$`), `variable ${name} is saved as "${saved}", which selects no ${name} "${value}"`);
  }
  assert.equal(defaults['window'], '1h');
});

test('every panel shows data with the default metrics.detail (basic); a query that needs full says so in its panel', () => {
  let needFull = 0;
  for (const p of allPanels(dashboard)) {
    const exprs = (p.targets ?? []).map((t) => t.expr).filter((e): e is string => typeof e === 'string');
    if (exprs.length === 0) continue;
    const full = exprs.filter((e) => needsFullDetail(e));
    assert.ok(full.length < exprs.length, `panel ${p.id} "${p.title}" is empty unless metrics.detail is full`);
    if (full.length === 0) continue;
    needFull++;
    assert.match(
      String(p.description ?? ''),
      /metrics\.detail: full/,
      `panel ${p.id} "${p.title}" reads ${full.join(', ')} but does not say it needs metrics.detail: full`,
    );
  }
  assert.ok(needFull >= 1, 'the all-gaps line of the inter-token gap panel needs full');
});

test('every metric referenced exists in createMetrics with metrics.detail: full (histograms as _bucket/_sum/_count)', () => {
  for (const { where, expr } of rawExpressions()) {
    const names = metricNamesIn(expr);
    for (const name of names) assert.ok(series.has(name), `${where}: ${name} is not exported (${expr})`);
  }
  const used = new Set(rawExpressions().flatMap(({ expr }) => metricNamesIn(expr)));
  for (const name of ['coherency_degeneration_ratio', 'coherency_probe_samples_total', 'coherency_probe_errors_total']) {
    assert.ok(used.has(name), `${name} is on no panel`);
  }
});

test('no panel or variable reads a deprecated metric (coherency_probe_runs_total: coherency_probe_samples_total)', () => {
  const deprecated = deprecatedMetrics();
  assert.ok(deprecated.has('coherency_probe_runs_total'));
  for (const { where, expr } of rawExpressions())
    for (const name of metricNamesIn(expr)) assert.ok(!deprecated.has(name), `${where}: ${name} is deprecated`);
});

test('selectors match only on labels their metric has', () => {
  for (const { where, expr } of rawExpressions()) {
    for (const sel of selectorsIn(expr)) {
      const known = series.get(sel.name);
      if (!known) continue; // reported by the test above
      for (const label of sel.labels) {
        assert.ok(known.has(label) || TARGET_LABELS.includes(label), `${where}: ${sel.name} has no label ${label}`);
      }
    }
  }
});

test('range windows are variables, not fixed durations, and never $__rate_interval (empty between sparse runs)', () => {
  for (const { where, expr } of rawExpressions()) {
    for (const m of expr.matchAll(/\[([^\]]*)\]/g)) {
      assert.ok(['$window', '$__range', '$__interval'].includes(m[1] as string), `${where}: window [${m[1]}] in ${expr}`);
    }
  }
});

test('the Window variable: an interval variable with windows from 30m to 1d, 1h by default', () => {
  const window = variable('window');
  assert.equal(window.type, 'interval');
  assert.deepEqual(String(window.query).split(','), ['30m', '1h', '3h', '6h', '12h', '1d']);
  assert.equal((window.current as { value: string }).value, '1h');
  assert.equal(VARIABLE_VALUES['window'], '1h');
});

test('ratios that can pass 1 are not drawn as percentages clipped at 1', () => {
  // coherency_*compression_ratio: above 1 for outputs under ~50 bytes (see its HELP).
  for (const p of allPanels(dashboard)) {
    if (!(p.targets ?? []).some((t) => String(t.expr).includes('compression_ratio'))) continue;
    const defaults = (p.fieldConfig as { defaults: { unit?: string; max?: number } }).defaults;
    assert.notEqual(defaults.unit, 'percentunit', `panel ${p.id} "${p.title}"`);
    assert.equal(defaults.max, undefined, `panel ${p.id} "${p.title}" clips at ${defaults.max}`);
  }
});

test('the inter-token gap panel reads the per-sample largest gap histogram', () => {
  const gaps = allPanels(dashboard).find((p) => /inter-token gap/i.test(p.title ?? ''));
  assert.ok(gaps);
  const exprs = (gaps.targets ?? []).map((t) => String(t.expr));
  assert.ok(
    exprs.some((e) => e.includes('coherency_largest_inter_token_gap_seconds_bucket')),
    exprs.join('\n'),
  );
  // the typical gap under the default detail: 1 / the median tokens per second, no per-gap histogram needed
  const typical = exprs.filter((e) => e.includes('coherency_output_tokens_per_second_bucket'));
  assert.equal(typical.length, 1, exprs.join('\n'));
  assert.equal(needsFullDetail(typical[0] as string), false);
});

test('dashboardQueries expands every variable and returns every panel query', () => {
  const queries = dashboardQueries(dashboard);
  const targetCount = allPanels(dashboard).reduce((n, p) => n + (p.targets ?? []).length, 0);
  assert.equal(queries.length, targetCount);
  for (const q of queries) {
    assert.ok(q.title.length > 0);
    assert.ok(!q.expr.includes('$'), `${q.title}: unexpanded variable in ${q.expr}`);
  }
  const ttft = queries.find((q) => q.title === 'Time to first token p50 / p95 [A]');
  assert.equal(
    ttft?.expr,
    'histogram_quantile(0.5, sum by (target, probe, le) (rate(coherency_time_to_first_token_seconds_bucket{target=~".*",probe=~".*"}[1h])))',
  );
});

test('expandVariables knows the ${var} and ${var:format} forms and refuses unknown variables', () => {
  assert.equal(expandVariables('x{target=~"${target:regex}"}[$__range]'), 'x{target=~".*"}[5m]');
  assert.throws(() => expandVariables('x{a="$nope"}'), /unknown template variable \$nope/);
});

test('target changes are drawn as an annotation: increase of coherency_target_changes_total per target, on by default', () => {
  const changes = annotations().filter((a) => a.expr?.includes('coherency_target_changes_total'));
  assert.equal(changes.length, 1, JSON.stringify(annotations()));
  const a = changes[0] as Annotation;
  assert.deepEqual(a.datasource, DATASOURCE);
  assert.equal(a.enable, true);
  // increase, not changes(): a restarted exporter's counter drops to 0, which is no change of the target
  assert.match(
    a.expr ?? '',
    /^sum by \(target\) \(increase\(coherency_target_changes_total\{target=~"\$target"\}\[\$__interval\]\)\) > 0$/,
  );
  assert.match(a.titleFormat ?? '', /\{\{target\}\}/);
  assert.equal(a.tagKeys, 'target');
});

/** Series an expression reads: the exporter's metrics, Prometheus's `up`, and the sources of recorded series. */
function seriesRead(expr: string, recorded: ReadonlyMap<string, string>): Set<string> {
  const names = new Set(metricNamesIn(expr));
  if (/(?<![\w:])up\s*\{/.test(expr)) names.add('up');
  for (const name of recordedNamesIn(expr)) for (const source of seriesRead(recorded.get(name) ?? '', recorded)) names.add(source);
  return names;
}

test('every alert of rules.yml has a panel to look at when it fires: its description names the alert, its queries read its series', () => {
  const rules = parse(readFileSync(join(repoRoot(), 'deploy/prometheus/rules.yml'), 'utf8')) as {
    groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
  };
  const all = rules.groups.flatMap((g) => g.rules);
  const recorded = new Map(all.flatMap((r) => (r.record ? [[r.record, r.expr] as const] : [])));
  const alerts = new Map<string, Set<string>>();
  for (const rule of all) {
    if (!rule.alert) continue;
    const read = alerts.get(rule.alert) ?? new Set<string>();
    for (const name of seriesRead(rule.expr, recorded)) read.add(name);
    alerts.set(rule.alert, read);
  }
  assert.ok(alerts.size >= 12, `only ${alerts.size} alerts read from rules.yml`);
  const missing: string[] = [];
  for (const [alert, read] of alerts) {
    const panels = allPanels(dashboard).filter((p) => new RegExp(`\\b${alert}\\b`).test(String(p.description ?? '')));
    const reading = panels.filter((p) =>
      (p.targets ?? []).some((t) => [...seriesRead(String(t.expr ?? ''), recorded)].some((n) => read.has(n))),
    );
    if (reading.length === 0) {
      missing.push(
        panels.length === 0
          ? `${alert}: no panel description names it`
          : `${alert}: named by ${panels.map((p) => `"${p.title}"`).join(', ')}, which read none of ${[...read].join(', ')}`,
      );
    }
  }
  assert.deepEqual(missing, []);
});
