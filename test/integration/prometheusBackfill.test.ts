// Issue 9: the dashboard at a real schedule. 24 hours of a probe run every 30 minutes, exported
// by the exporter's own metrics code (test/helpers/simulatedOpenMetrics.ts) and scraped every
// minute, are backfilled into a real Prometheus with `promtool tsdb create-blocks-from
// openmetrics`; every panel query of grafana/coherency-dashboard.json is evaluated over that
// day with the variables Grafana would use at a 24-hour range, and must show data: a time
// series panel on at least 90% of its steps once the first hour of runs is in, a stat or table
// panel at the end of the range. A query whose window only holds a sample right after a run
// (rate(...[$__rate_interval]) at a 30-minute schedule) fails here. The metrics are the default
// metrics.detail (basic); a query on a series only `full` exports must evaluate, and may be empty.
// So may the queries on series this day cannot have (NOT_IN_THIS_DAY): a target's fingerprint
// and its changes come from a real server, `up` from a live scrape.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { dashboardQueries, loadDashboard, VARIABLE_VALUES } from '../grafana/dashboardQueries.js';
import { metricNamesIn, needsFullDetail } from '../grafana/exportedMetrics.js';
import { freePort, makeTempDir, requireTool, ROOT, runCommand, startChild, waitFor, type Child } from '../helpers/integrationProcess.js';
import { writeSimulatedScrapes, type SimulatedAnswer } from '../helpers/simulatedOpenMetrics.js';

const HOUR = 3600;
const SCRAPE = 60;
const SCHEDULE = 30 * 60;
/** Grafana at a 24-hour range on a ~1000-pixel panel: $__interval 1m (the step), and
 *  $__rate_interval = max($__interval + scrape interval, 4 × scrape interval) with a 1m scrape. */
const GRAFANA_24H: Readonly<Record<string, string>> = { ...VARIABLE_VALUES, __range: '24h', __interval: '1m', __rate_interval: '4m' };
/** Share of the steps a time series panel must have a value on, after the warm-up. */
const MIN_COVERAGE = 0.9;
/** Panels that are empty by design part of the time; they must still show data somewhere in the day. */
/** Series only recall, contamination, golden and conformance probes have (src/metrics/kindMetrics.ts, conformanceMetrics.ts). */
const PROBE_KIND_ONLY = /\bcoherency_(recall_ratio|recall_min_ratio|contamination_detected_total|golden_[a-z_]+|conformance_[a-z_]+)\b/;
/**
 * Series a backfilled day of one probe cannot have: the fingerprint (coherency_target_info and the
 * before/after comparison exist once the exporter read a server's identity and saw it change) and
 * Prometheus's own `up` of a live scrape. Their queries must evaluate; test/integration/
 * prometheusDashboard.test.ts proves their panels against a daemon whose target changes.
 */
const NOT_IN_THIS_DAY = /\bcoherency_(target_info|target_last_change_timestamp_seconds|change_[a-z_]+)\b|(?<![\w:])up\{/;
const PART_TIME: Readonly<Record<string, string>> = {
  'Collapse onset (share of the output, last failed sample)': 'the gauge exists only while the last sample failed',
};

/** The day's story: healthy, a 2-hour collapse, the target down once, a lone bad sample, healthy. */
function answer(run: number): SimulatedAnswer {
  if (run >= 20 && run <= 23) return 'fail';
  if (run === 24) return 'error';
  if (run === 35) return 'fail';
  return 'ok';
}

/** The registry's family names behind the series the dashboard reads (histograms by their base name). */
function dashboardFamilies(exprs: string[]): Set<string> {
  const registry = new Registry();
  createMetrics(registry, { version: 'x', defaultMetrics: false });
  const families = registry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name);
  const used = new Set(exprs.flatMap(metricNamesIn));
  return new Set(families.filter((f) => [...used].some((u) => u === f || ['_bucket', '_sum', '_count'].some((s) => u === f + s))));
}

interface ApiAnswer<T> {
  status: 'success' | 'error';
  data?: T;
  errorType?: string;
  error?: string;
}
type Matrix = { metric: Record<string, string>; values: [number, string][] }[];
type Vector = { metric: Record<string, string>; value: [number, string] }[];

describe('the Grafana dashboard over 24 hours of a 30-minute schedule, backfilled into a real Prometheus', { timeout: 240_000 }, () => {
  const tmp = makeTempDir('backfill');
  let prometheus: Child | undefined;
  after(async () => {
    await prometheus?.stop(5000);
    tmp.remove();
  });

  it('shows data on every panel', async (t) => {
    const promtool = requireTool('promtool');
    if (promtool.skip !== null) return t.skip(promtool.skip);
    const server = requireTool('prometheus');
    if (server.skip !== null) return t.skip(server.skip);

    const dashboard = loadDashboard(ROOT);
    const panels = dashboardQueries(dashboard, GRAFANA_24H);
    assert.ok(panels.length > 0);

    // The day ends 5 minutes before now, so that the blocks lie before Prometheus's head;
    // the runs are off the minute grid of the range's end (the last one 13 minutes before it).
    const end = Math.floor(Date.now() / 1000 / 60) * 60 - 5 * 60;
    const start = end - 24 * HOUR;
    const file = join(tmp.dir, 'scrapes.om.txt');
    const began = Date.now();
    const simulated = await writeSimulatedScrapes({
      file,
      target: 'vllm',
      probe: 'long-story',
      startSeconds: start,
      endSeconds: end,
      firstRunSeconds: start + 17 * 60,
      scrapeIntervalSeconds: SCRAPE,
      scheduleIntervalSeconds: SCHEDULE,
      answer,
      families: dashboardFamilies(panels.map((p) => p.expr)),
      // the prompt adherence, sweep and logprob panels read series only such a probe has
      signals: true,
    });
    const verdicts = simulated.runs.map((r) => r.verdict);
    assert.equal(simulated.runs.length, 48);
    assert.deepEqual(
      {
        ok: verdicts.filter((v) => v === 'ok').length,
        fail: verdicts.filter((v) => v === 'fail').length,
        error: verdicts.filter((v) => v === 'error').length,
      },
      { ok: 42, fail: 5, error: 1 },
      'the analyser judged the simulated answers as intended',
    );
    const generated = Date.now();

    const data = join(tmp.dir, 'data');
    const created = await runCommand(promtool.path, ['tsdb', 'create-blocks-from', 'openmetrics', file, data], { timeoutMs: 120_000 });
    assert.equal(
      created.code,
      0,
      `promtool tsdb create-blocks-from openmetrics:\n${created.stdout.slice(-2000)}${created.stderr.slice(-2000)}`,
    );
    const backfilled = Date.now();

    const config = join(tmp.dir, 'prometheus.yml');
    writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    prometheus = startChild(server.path, [
      `--config.file=${config}`,
      `--storage.tsdb.path=${data}`,
      // Explicit, so that no packaged default can drop a day-old block.
      '--storage.tsdb.retention.time=15d',
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ]);
    const child = prometheus;
    const api = async <T>(path: string, params: Record<string, string>): Promise<ApiAnswer<T>> => {
      const exit = child.exit();
      if (exit) throw new Error(`prometheus exited (code ${String(exit.code)}):\n${child.stderr().slice(-3000)}`);
      const res = await fetch(`${base}${path}?${new URLSearchParams(params).toString()}`, { signal: AbortSignal.timeout(20_000) });
      return (await res.json()) as ApiAnswer<T>;
    };
    await waitFor(
      'prometheus ready',
      async () => {
        if (child.exit()) throw new Error(`prometheus exited:\n${child.stderr().slice(-3000)}`);
        return (await fetch(`${base}/-/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );

    // The backfill is there: every sample of the day is counted at the end of the range.
    const total = await api<{ result: Vector }>('/api/v1/query', { query: 'sum(coherency_probe_samples_total)', time: String(end) });
    assert.equal(Number(total.data?.result[0]?.value[1]), 48, JSON.stringify(total));

    // A time series panel is judged from the first run plus an hour (the widest window a panel
    // uses by default, $window), to the end of the range.
    const firstRun = simulated.runs[0]?.atSeconds ?? start;
    const warm = firstRun + HOUR;
    const steps = Math.floor((end - warm) / SCRAPE) + 1;
    const problems: string[] = [];
    const coverage: string[] = [];
    for (const { title, expr, instant } of panels) {
      const where = `panel "${title}" (${instant ? 'instant' : 'range'}): ${expr}`;
      if (instant) {
        const answer = await api<{ result: Vector }>('/api/v1/query', { query: expr, time: String(end) });
        if (answer.status !== 'success') problems.push(`${where}\n    → ${answer.errorType ?? ''}: ${answer.error ?? '?'}`);
        // the probe kinds' own series: this day runs a generation probe only (test/integration/prometheusDashboard.test.ts proves them)
        else if (PROBE_KIND_ONLY.test(expr)) {
          if (answer.data?.result.length) problems.push(`${where}\n    → a value, though only other probe kinds export these series`);
        } else if (NOT_IN_THIS_DAY.test(expr)) {
          // evaluated without error is all this day can show
        } else if (!answer.data?.result.some((s) => Number.isFinite(Number(s.value[1]))))
          problems.push(`${where}\n    → no value at the end of the range`);
        continue;
      }
      const answer = await api<{ result: Matrix }>('/api/v1/query_range', {
        query: expr,
        start: String(start),
        end: String(end),
        step: String(SCRAPE),
      });
      if (answer.status !== 'success') {
        problems.push(`${where}\n    → ${answer.errorType ?? ''}: ${answer.error ?? '?'}`);
        continue;
      }
      if (title === 'Failed share of samples [A]') {
        // Not only some data: the day's story. 1 during the collapse, 0 at the end.
        const values = (answer.data?.result ?? []).flatMap((series) => series.values.map(([, v]) => Number(v)));
        const last = answer.data?.result[0]?.values.at(-1);
        if (Math.max(...values) !== 1 || Number(last?.[1]) !== 0)
          problems.push(`${where}\n    → max ${Math.max(...values)}, last ${String(last?.[1])}; expected 1 and 0`);
      }
      const shown = new Set<number>();
      for (const series of answer.data?.result ?? []) {
        for (const [ts, v] of series.values) if (ts >= warm && Number.isFinite(Number(v))) shown.add(ts);
      }
      const share = shown.size / steps;
      const note = needsFullDetail(expr)
        ? ' (metrics.detail: full only)'
        : PROBE_KIND_ONLY.test(expr)
          ? ' (recall, contamination and conformance probes only)'
          : NOT_IN_THIS_DAY.test(expr)
            ? ' (after a change of a real target only)'
            : '';
      coverage.push(`${(share * 100).toFixed(0).padStart(3)}%  ${title}${note}`);
      const partTime = PART_TIME[title.replace(/ \[[A-Z]\]$/, '')];
      if (needsFullDetail(expr)) {
        if (shown.size > 0) problems.push(`${where}\n    → a value, though its series are only exported with metrics.detail: full`);
      } else if (PROBE_KIND_ONLY.test(expr)) {
        // recall, contamination and conformance probes' own series: this day runs a generation probe only
        // (test/integration/prometheusDashboard.test.ts proves these panels with every kind)
        if (shown.size > 0) problems.push(`${where}\n    → a value, though only other probe kinds export these series`);
      } else if (NOT_IN_THIS_DAY.test(expr)) {
        // evaluated without error is all this day can show
      } else if (partTime !== undefined) {
        if (shown.size === 0) problems.push(`${where}\n    → no value at any step of the day (${partTime})`);
      } else if (share < MIN_COVERAGE) {
        problems.push(
          `${where}\n    → a value on ${(share * 100).toFixed(0)}% of the steps after the first hour of runs, expected ${MIN_COVERAGE * 100}% or more`,
        );
      }
    }
    t.diagnostic(
      `${simulated.scrapes} scrapes, ${simulated.lines} samples written in ${((generated - began) / 1000).toFixed(1)} s, ` +
        `backfilled in ${((backfilled - generated) / 1000).toFixed(1)} s, ${panels.length} panel queries evaluated in ${((Date.now() - backfilled) / 1000).toFixed(1)} s`,
    );
    t.diagnostic('share of steps with a value, after the first hour:');
    for (const line of coverage) t.diagnostic(line);
    assert.equal(
      problems.length,
      0,
      `${problems.length} dashboard queries show no data at a 30-minute schedule:\n  ${problems.join('\n  ')}`,
    );
  });
});
