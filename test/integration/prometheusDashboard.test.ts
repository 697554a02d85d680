// Issue 5 §2 and issue 21 §1: the dashboard proven on a real Prometheus, as a first import shows
// it. The demo config (config/coherency.yaml, what `npm start` runs; schedules made faster) is
// served once with metrics.detail basic (the default) and once with full; Debian's `prometheus`
// scrapes it every second with deploy/prometheus/rules.yml loaded. Every panel of
// grafana/coherency-dashboard.json is evaluated with the template variables at their saved
// defaults (what a first import selects) and must show data: under basic, every query but those on
// a series only `full` exports (their panels say so, test/grafana/dashboard.test.ts) and at least
// one query per panel; under full, every query. The API conformance row's checklist shows the
// demo's two conformance targets: every check of the healthy one passing, and the streaming check
// of the one behind the simulator's buffering proxy failing with `buffered`.
//
// Issue 39: the panels of the rarer events show data too. One more target, sim-release, on a
// second simulator that is upgraded after 3 requests to a release that loops (src/simulator/
// release.ts) and streams slower than its probe's one-second schedule: the exporter sees the
// change (the Target changes row: the targets table, the before/after comparison) and skips the
// ticks that come while a run still streams (Skipped runs, reason overlap); sim-collapse keeps
// failing (Failing streak). The config reload panels read gauges set when the config is first
// loaded, so they need no reload; the alert on a refused reload is promtool's (rules.test.yml).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse, parseDocument } from 'yaml';
import { startSimulator } from '../../src/simulator/index.js';
import { dashboardQueries, loadDashboard, savedDefaults, templateVariableQueries } from '../grafana/dashboardQueries.js';
import { needsFullDetail } from '../grafana/exportedMetrics.js';
import { demoConfig, demoNames } from '../helpers/demoConfig.js';
import {
  ensureBuilt,
  freePort,
  makeTempDir,
  requireTool,
  ROOT,
  startChild,
  startServe,
  waitFor,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';

const RULES = join(ROOT, 'deploy', 'prometheus', 'rules.yml');
/** Time allowed from starting Prometheus to every query answering with series. */
const BUDGET_MS = 40_000;
const DEMO = demoNames();
/** The demo's schedules, faster: every pair runs a few times within the budget. */
const FAST: Readonly<Record<string, string>> = Object.fromEntries(
  DEMO.probes.map((name) => [
    name,
    name === 'recall' || name === 'contamination' ? '*/3 * * * * *' : name === 'conformance' ? '*/4 * * * * *' : '*/2 * * * * *',
  ]),
);
/**
 * The simulator's rate: a conformance stream (512 tokens) must last long enough for its spread
 * to be judged (src/probe/conformance/streaming.ts: 100 ms at least), or the streaming ratios
 * have no series and the buffering proxy is not caught; at 2,000 tokens/s it lasts 256 ms, where
 * healthy streams measured far from the thresholds (the demo's own 4,000 is closer to the noise).
 */
const TOKENS_PER_SECOND = 2000;
/** The target upgraded mid-test, its probe and what its simulator serves. */
const RELEASE = { target: 'sim-release', probe: 'release-check', after: 3 } as const;
/** 400 tokens at 200 tokens/s: each run streams about 2 s, past its one-second schedule. */
const RELEASE_SIMULATOR = { tokensPerSecond: 200, release: { after: RELEASE.after, degradeTo: 'collapse-sentence@150', speedup: 1.5 } };

/** The exporter config with the release target and its probe added. */
function withReleaseTarget(yaml: string, baseUrl: string): string {
  const doc = parseDocument(yaml);
  doc.addIn(['targets'], doc.createNode({ name: RELEASE.target, baseUrl, model: 'healthy', probes: [RELEASE.probe] }));
  doc.addIn(
    ['probes'],
    doc.createNode({
      name: RELEASE.probe,
      schedule: '* * * * * *',
      prompt: 'Write a long article about storage engines.',
      maxTokens: 400,
      minTokens: 0,
    }),
  );
  return doc.toString();
}

function prometheusConfig(exporterPort: number): string {
  return `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - ${JSON.stringify(RULES)}
scrape_configs:
  - job_name: coherency-exporter
    static_configs:
      - targets: ["127.0.0.1:${exporterPort}"]
`;
}

interface ApiAnswer<T> {
  status: 'success' | 'error';
  data?: T;
  errorType?: string;
  error?: string;
}
interface QueryData {
  resultType: string;
  result: { metric: Record<string, string> }[] | unknown;
}
interface RulesData {
  groups: { name: string; file: string; rules: { name: string; health: string; lastError?: string; type: string }[] }[];
}

describe('the Grafana dashboard on a real Prometheus, variables at their saved defaults', { timeout: 150_000 }, () => {
  const tmp = makeTempDir('prometheus');
  const children: Child[] = [];
  const simulators: { close(): Promise<void> }[] = [];
  after(async () => {
    for (const child of children.reverse()) await child.stop(5000);
    for (const simulator of simulators) await simulator.close();
    tmp.remove();
  });

  for (const detail of ['basic', 'full'] as const) {
    const rules = detail === 'basic';
    it(`demo, metrics.detail: ${detail}: every panel shows data${rules ? '; the alert rules load and evaluate' : ''}`, async (t) => {
      const tool = requireTool('prometheus');
      if (tool.skip !== null) return t.skip(tool.skip);
      ensureBuilt();

      const releaseSimulator = await startSimulator(RELEASE_SIMULATOR);
      simulators.push(releaseSimulator);
      const exporterFile = join(tmp.dir, `exporter-${detail}.yaml`);
      writeFileSync(
        exporterFile,
        withReleaseTarget(
          demoConfig({ simulatorPort: await freePort(), schedules: FAST, tokensPerSecond: TOKENS_PER_SECOND, detail }),
          releaseSimulator.url,
        ),
      );
      const exporterPort = await freePort();
      const serve = startServe(['--config', exporterFile, '--port', String(exporterPort)]);
      children.push(serve);
      await waitReady(serve, `http://127.0.0.1:${exporterPort}`);

      const promFile = join(tmp.dir, `prometheus-${detail}.yml`);
      writeFileSync(promFile, prometheusConfig(exporterPort));
      const promPort = await freePort();
      const prom = `http://127.0.0.1:${promPort}`;
      const started = Date.now();
      const left = () => Math.max(1000, BUDGET_MS - (Date.now() - started));
      const promChild = startChild(tool.path, [
        `--config.file=${promFile}`,
        `--storage.tsdb.path=${join(tmp.dir, `data-${detail}`)}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
        '--log.level=warn',
      ]);
      children.push(promChild);
      const api = async <T>(path: string, params: Record<string, string | string[]> = {}): Promise<ApiAnswer<T>> => {
        const exit = promChild.exit();
        if (exit) throw new Error(`prometheus exited (code ${String(exit.code)}):\n${promChild.stderr().slice(-3000)}`);
        const query = new URLSearchParams();
        for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) query.append(k, one);
        const res = await fetch(`${prom}${path}?${query.toString()}`, { signal: AbortSignal.timeout(5000) });
        return (await res.json()) as ApiAnswer<T>;
      };
      const vectorSize = async (expr: string): Promise<number> => {
        const answer = await api<QueryData>('/api/v1/query', { query: expr });
        return Array.isArray(answer.data?.result) ? answer.data.result.length : 0;
      };

      await waitFor('the exporter scraped (up == 1)', async () => (await vectorSize('up{job="coherency-exporter"} == 1')) === 1, {
        timeoutMs: left(),
        intervalMs: 250,
      });
      await waitFor(
        'ok and fail samples in Prometheus',
        async () => (await vectorSize('count by (verdict) (coherency_probe_samples_total{verdict=~"ok|fail"} > 0)')) === 2,
        { timeoutMs: left(), intervalMs: 250 },
      );

      // Queries that return nothing are retried until the budget is spent (a rate needs two
      // scrapes of a series); a query that errors is wrong whatever the data, and fails at once.
      const dashboard = loadDashboard(ROOT);
      const panels = dashboardQueries(dashboard, savedDefaults(dashboard));
      assert.ok(panels.length > 0, 'the dashboard has no panel queries');
      const failures = new Map<string, string>();
      const errors = new Map<string, string>();
      const queried = await waitFor(
        'every dashboard panel to show data',
        async () => {
          failures.clear();
          const end = Date.now() / 1000;
          const withData = new Set<number | undefined>();
          const empty: { panelId: number | undefined; where: string; full: boolean }[] = [];
          for (const { panelId, title, expr } of panels) {
            for (const kind of ['instant', 'range'] as const) {
              const where = `panel ${String(panelId)} "${title}" (${kind}): ${expr}`;
              if (errors.has(where)) continue;
              const answer =
                kind === 'instant'
                  ? await api<QueryData>('/api/v1/query', { query: expr, time: end.toFixed(3) })
                  : await api<QueryData>('/api/v1/query_range', {
                      query: expr,
                      start: (end - 60).toFixed(3),
                      end: end.toFixed(3),
                      step: '2',
                    });
              if (answer.status !== 'success') errors.set(where, `${answer.errorType ?? ''}: ${answer.error ?? '?'}`);
              else if (Array.isArray(answer.data?.result) && answer.data.result.length > 0) withData.add(panelId);
              else empty.push({ panelId, where, full: needsFullDetail(expr) });
            }
          }
          for (const e of empty) {
            // under basic a query on a full-only series may be empty, as long as its panel shows another
            if (detail === 'basic' && e.full && withData.has(e.panelId)) continue;
            failures.set(e.where, e.full && detail === 'basic' ? 'no series, and no other query of the panel has any' : 'no series');
          }
          for (const v of templateVariableQueries(dashboard)) {
            const where = `template variable $${v.name}: label_values(${v.selector}, ${v.label})`;
            if (errors.has(where)) continue;
            const answer = await api<string[]>(`/api/v1/label/${v.label}/values`, {
              'match[]': v.selector,
              start: (end - 300).toFixed(3),
              end: end.toFixed(3),
            });
            const expected = v.label === 'target' ? DEMO.targets : v.label === 'probe' ? DEMO.probes : [];
            if (answer.status !== 'success') errors.set(where, `${answer.errorType ?? ''}: ${answer.error ?? '?'}`);
            else if (!answer.data || answer.data.length === 0) failures.set(where, 'no values');
            else if (expected.some((name) => !answer.data?.includes(name))) {
              failures.set(where, `values ${JSON.stringify(answer.data)}, expected all of ${JSON.stringify(expected)}`);
            }
          }
          return failures.size === 0;
        },
        { timeoutMs: left(), intervalMs: 1000 },
      ).then(
        () => null,
        (err: Error) => err,
      );
      const problems = [...errors, ...failures].map(([where, why]) => `${where}\n    → ${why}`);
      assert.equal(problems.length, 0, `${problems.length} dashboard queries failed:\n  ${problems.join('\n  ')}`);
      // No problem listed yet the wait failed: a pass was cut short (Prometheus gone, a timeout).
      if (queried) throw queried;
      t.diagnostic(`${panels.length} panel queries (instant and range) answered after ${((Date.now() - started) / 1000).toFixed(1)} s`);

      // The conformance row shows the checklist: every check of each target (reasoning and auth
      // are skipped: the model does not reason, the target has no key), pass or fail, with the
      // reason of a failure. Read until the last runs agree (a run misjudged under a load spike is
      // followed by another).
      const checklist = panels.filter((p) => p.title.startsWith('Conformance checklist'));
      assert.equal(checklist.length, 3, 'the checklist panel reads the success gauge, the failing reason and the failing streak');
      const rows = async (expr: string) =>
        (
          (await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>('/api/v1/query', { query: expr })).data
            ?.result ?? []
        )
          .map((r) => [r.metric['target'], r.metric['check'], r.metric['reason'] ?? r.value[1]].join(' '))
          .sort();
      const checks = ['chat', 'fields', 'limits', 'models', 'streaming', 'tools'];
      const expectedRows = [
        ...checks.map((c) => `sim-buffering-proxy ${c} ${c === 'streaming' ? 0 : 1}`),
        ...checks.map((c) => `sim-healthy ${c} 1`),
      ];
      let seen: string[][] = [];
      const agreed = await waitFor(
        'the conformance checklist of the demo',
        async () => {
          seen = [await rows(checklist[0]!.expr), await rows(checklist[1]!.expr)];
          return JSON.stringify(seen) === JSON.stringify([expectedRows, ['sim-buffering-proxy streaming buffered']]);
        },
        { timeoutMs: Math.max(10_000, left()), intervalMs: 1000 },
      ).then(
        () => null,
        (err: Error) => err,
      );
      assert.deepEqual(seen, [expectedRows, ['sim-buffering-proxy streaming buffered']]);
      if (agreed) throw agreed;

      // The panels of issue 39 show the events, not only some series: the release target's change
      // compared before and after, its overlapping runs skipped, the failing streaks, the
      // reload, the scrape, and the typical inter-token gap under either detail.
      const query = (title: string): string => {
        const found = panels.filter((p) => p.title === title);
        assert.equal(found.length, 1, `one query titled "${title}", found ${found.length}`);
        return found[0]!.expr;
      };
      const values = async (expr: string): Promise<Map<string, number>> => {
        const answer = await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>('/api/v1/query', {
          query: expr,
        });
        const out = new Map<string, number>();
        for (const r of answer.data?.result ?? []) {
          const { target, probe, period, reason, instance } = r.metric;
          out.set([target, probe, period, reason, instance].filter((x) => x !== undefined).join(' '), Number(r.value[1]));
        }
        return out;
      };
      const pair = `${RELEASE.target} ${RELEASE.probe}`;
      const expectations: [string, (v: Map<string, number>) => boolean][] = [
        // the comparison: 3 samples of release 1 before the change, loops after it
        [
          'Before / after the last change of the target, per pair [A]',
          (v) => v.get(`${pair} before`) === RELEASE.after && (v.get(`${pair} after`) ?? 0) >= 1,
        ],
        [
          'Before / after the last change of the target, per pair [B]',
          (v) => v.get(`${pair} before`) === 0 && v.get(`${pair} after`) === 1,
        ],
        ['Failed and loop share, before (dashed) and after the last change [B]', (v) => v.get(`${pair} after`) === 1],
        [
          'Speed, before (dashed) and after the last change: time to first token, inter-token latency [B]',
          (v) => (v.get(`${pair} before`) ?? 0) > 0,
        ],
        ['Targets: what they are, their changes [B]', (v) => v.get(RELEASE.target) === 1 && v.get('sim-healthy') === 0],
        ['Targets: what they are, their changes [C]', (v) => (v.get(RELEASE.target) ?? 0) > Date.now() - 120_000],
        ['Skipped runs by reason (per $window)', (v) => (v.get(`${pair} overlap`) ?? 0) > 0],
        ['Failing streak (runs in a row not ok)', (v) => (v.get('sim-collapse short') ?? 0) >= 1 && v.get('sim-healthy short') === 0],
        ['Last config reload', (v) => [...v.values()].join() === '1'],
        ['Exporter scraped (up)', (v) => [...v.values()].join() === '1'],
        ["Inter-token gaps: each sample's largest (p95), typical (p50), all gaps (p95) [C]", (v) => (v.get(pair) ?? 0) > 0],
      ];
      let unmet: string[] = [];
      const shown = await waitFor(
        'the events on the new panels',
        async () => {
          unmet = [];
          for (const [title, holds] of expectations) {
            const v = await values(query(title));
            if (!holds(v)) unmet.push(`${title}: ${JSON.stringify([...v])}`);
          }
          return unmet.length === 0;
        },
        { timeoutMs: Math.max(10_000, left()), intervalMs: 1000 },
      ).then(
        () => null,
        (err: Error) => err,
      );
      assert.deepEqual(unmet, []);
      if (shown) throw shown;
      for (const title of [
        'Before / after the last change of the target, per pair [A]',
        'Before / after the last change of the target, per pair [B]',
        'Skipped runs by reason (per $window)',
      ]) {
        const v = [...(await values(query(title)))].filter(([key]) => key.startsWith(pair));
        t.diagnostic(`${title}: ${v.map(([key, n]) => `${key} = ${n.toFixed(2)}`).join(', ')}`);
      }

      if (rules) {
        // The rule group of rules.yml, loaded and evaluated without error.
        const expected = parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: unknown[] }[] };
        let unhealthy: string[] = [];
        const evaluated = await waitFor(
          'every alert rule evaluated with health ok',
          async () => {
            const answer = await api<RulesData>('/api/v1/rules');
            unhealthy = [];
            for (const group of expected.groups) {
              const loaded = answer.data?.groups.find((g) => g.name === group.name);
              if (!loaded) unhealthy.push(`group ${group.name}: not loaded`);
              else if (loaded.rules.length !== group.rules.length) {
                unhealthy.push(`group ${group.name}: ${loaded.rules.length} rules loaded, ${group.rules.length} in the file`);
              } else {
                for (const rule of loaded.rules) {
                  if (rule.health !== 'ok') unhealthy.push(`${group.name}/${rule.name}: health ${rule.health} ${rule.lastError ?? ''}`);
                }
              }
            }
            return unhealthy.length === 0;
          },
          { timeoutMs: Math.max(5000, left()), intervalMs: 500 },
        ).then(
          () => null,
          (err: Error) => err,
        );
        assert.deepEqual(unhealthy, [], `rules of ${RULES}:\n  ${unhealthy.join('\n  ')}`);
        if (evaluated) throw evaluated;
      }
      await promChild.stop(5000);
      await serve.stop(5000);
    });
  }
});
