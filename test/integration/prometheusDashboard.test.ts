// Issue 5 §2: the dashboard proven on a real Prometheus. The CLI probes a loopback simulator on
// fast schedules (ok, fail and error samples, and a conformance checklist of a healthy target and
// of one behind two defects); Debian's `prometheus` scrapes it every second with
// deploy/prometheus/rules.yml loaded; every panel query and template variable of
// grafana/coherency-dashboard.json must evaluate without error and return series. The exporter runs
// with the default metrics.detail (basic): a query on a series only `full` exports (its panel says
// so, test/grafana/dashboard.test.ts) must evaluate, and may be empty.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { dashboardQueries, loadDashboard, templateVariableQueries } from '../grafana/dashboardQueries.js';
import { needsFullDetail } from '../grafana/exportedMetrics.js';
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
const TARGETS = ['healthy', 'collapse', 'broken', 'direct', 'gateway'];
const PROBES = ['quick', 'brisk', 'checklist'];

/** Conformance targets, on a simulator paced like a fast server (a stream must last long enough to judge its spread). */
function conformanceTargets(pacedUrl: string): string {
  return `  - name: direct
    baseUrl: ${pacedUrl}
    model: healthy
    probes: [checklist]
  - name: gateway
    baseUrl: ${pacedUrl.replace(/\/v1$/, '/defect/model-renamed+tool-index-zero/v1')}
    model: healthy
    probes: [checklist]
`;
}

function exporterConfig(simUrl: string, pacedUrl: string): string {
  return `targets:
${conformanceTargets(pacedUrl)}
  - name: healthy
    baseUrl: ${simUrl}
    model: healthy
    probes: [quick, brisk]
  - name: collapse
    baseUrl: ${simUrl}
    model: collapse-sentence@300
    probes: [quick, brisk]
  - name: broken
    baseUrl: ${simUrl}
    model: fault-500
    probes: [quick, brisk]
    timeouts: { connectSeconds: 2, idleSeconds: 5, totalSeconds: 10 }
  - name: leaky
    baseUrl: ${simUrl}
    model: echo-previous
    probes: [recall, mixing]
probes:
  - name: checklist
    kind: conformance
    schedule: "*/4 * * * * *"
    maxTokens: 400
  - name: recall
    kind: recall
    schedule: "*/3 * * * * *"
    maxTokens: 200
    conversationTokens: 1000
  - name: mixing
    kind: contamination
    schedule: "*/2 * * * * *"
    maxTokens: 200
    concurrency: 3
  - name: quick
    schedule: "*/2 * * * * *"
    prompt: Write a detailed technical article about building a reliable job scheduler.
    maxTokens: 1500
    minTokens: 500
  - name: brisk
    schedule: "*/3 * * * * *"
    prompt: Explain how a hash table resolves collisions, in plain prose.
    maxTokens: 800
    minTokens: 200
    # the signal panels (off-prompt, coverage, degeneration by temperature, logprobs) need data
    temperatures: [0, 0.6]
    logprobs: true
    expect: { keywords: [hash table, collision, bucket] }
`;
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

describe('the Grafana dashboard on a real Prometheus', { timeout: 90_000 }, () => {
  const tmp = makeTempDir('prometheus');
  let sim: Simulator | undefined;
  let paced: Simulator | undefined;
  let serve: Child | undefined;
  let prometheus: Child | undefined;
  after(async () => {
    await prometheus?.stop(5000);
    await serve?.stop(5000);
    await sim?.close();
    await paced?.close();
    tmp.remove();
  });

  it('answers every panel query and template variable with series, and loads the alert rules', async (t) => {
    const tool = requireTool('prometheus');
    if (tool.skip !== null) return t.skip(tool.skip);
    ensureBuilt();

    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    paced = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 2000 });
    const exporterFile = join(tmp.dir, 'exporter.yaml');
    writeFileSync(exporterFile, exporterConfig(sim.url, paced.url));
    const exporterPort = await freePort();
    serve = startServe(['--config', exporterFile, '--port', String(exporterPort)]);
    await waitReady(serve, `http://127.0.0.1:${exporterPort}`);

    const promFile = join(tmp.dir, 'prometheus.yml');
    writeFileSync(promFile, prometheusConfig(exporterPort));
    const promPort = await freePort();
    const prom = `http://127.0.0.1:${promPort}`;
    const started = Date.now();
    const left = () => Math.max(1000, BUDGET_MS - (Date.now() - started));
    prometheus = startChild(tool.path, [
      `--config.file=${promFile}`,
      `--storage.tsdb.path=${join(tmp.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
      '--log.level=warn',
    ]);
    const promChild = prometheus;
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
      'ok, fail and error samples in Prometheus',
      async () => (await vectorSize('count by (verdict) (coherency_probe_runs_total{verdict=~"ok|fail|error"} > 0)')) === 3,
      { timeoutMs: left(), intervalMs: 250 },
    );

    // Queries that return nothing are retried until the budget is spent (a rate needs two
    // scrapes of a series); a query that errors is wrong whatever the data, and fails at once.
    const dashboard = loadDashboard(ROOT);
    const panels = dashboardQueries(dashboard);
    assert.ok(panels.length > 0, 'the dashboard has no panel queries');
    const failures = new Map<string, string>();
    const errors = new Map<string, string>();
    const queried = await waitFor(
      'every dashboard query to return series',
      async () => {
        failures.clear();
        const end = Date.now() / 1000;
        for (const { title, expr } of panels) {
          for (const kind of ['instant', 'range'] as const) {
            const where = `panel "${title}" (${kind}): ${expr}`;
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
            else if ((!Array.isArray(answer.data?.result) || answer.data.result.length === 0) && !needsFullDetail(expr))
              failures.set(where, 'no series');
          }
        }
        for (const v of templateVariableQueries(dashboard)) {
          const where = `template variable $${v.name}: label_values(${v.selector}, ${v.label})`;
          if (errors.has(where)) continue;
          const answer = await api<string[]>(`/api/v1/label/${v.label}/values`, {
            'match[]': v.selector,
            start: (end - 300).toFixed(3),
            end: end.toFixed(3),
          });
          const expected = v.label === 'target' ? TARGETS : v.label === 'probe' ? PROBES : [];
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

    // The conformance row shows the checklist: every check of each target, pass or fail, with the reason of a failure.
    const checklist = panels.filter((p) => p.title.startsWith('Conformance checklist'));
    assert.equal(checklist.length, 2, 'the checklist panel reads the success gauge and the failing reason');
    const rows = async (expr: string) =>
      (
        (await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>('/api/v1/query', { query: expr })).data
          ?.result ?? []
      )
        .map((r) => [r.metric['target'], r.metric['check'], r.metric['reason'] ?? r.value[1]].join(' '))
        .sort();
    assert.deepEqual(await rows(checklist[0]!.expr), [
      'direct chat 1',
      'direct fields 1',
      'direct limits 1',
      'direct models 1',
      'direct streaming 1',
      'direct tools 1',
      'gateway chat 1',
      'gateway fields 1',
      'gateway limits 1',
      'gateway models 0',
      'gateway streaming 1',
      'gateway tools 0',
    ]);
    assert.deepEqual(await rows(checklist[1]!.expr), ['gateway models model_mismatch', 'gateway tools index_collision']);
    t.diagnostic(`${panels.length} panel queries (instant and range) answered after ${((Date.now() - started) / 1000).toFixed(1)} s`);

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
  });
});
