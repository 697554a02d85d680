/** The series names (and their labels) the exporter exposes, read from createMetrics on a fresh registry. */
import { Registry } from 'prom-client';
import type { MetricsDetail } from '../../src/config/types.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';

/** Series name → label names (histogram series carry `le` on _bucket), under a metrics.detail (basic, the default, when absent). */
export function exportedSeries(detail: MetricsDetail = 'basic'): Map<string, Set<string>> {
  const registry = new Registry();
  createMetrics(registry, { version: 'test', detail });
  const series = new Map<string, Set<string>>();
  for (const metric of registry.getMetricsAsArray()) {
    const { name, type, labelNames } = metric as unknown as { name: string; type: string; labelNames?: string[] };
    const labels = labelNames ?? [];
    if (type === 'histogram') {
      series.set(`${name}_bucket`, new Set([...labels, 'le']));
      series.set(`${name}_sum`, new Set(labels));
      series.set(`${name}_count`, new Set(labels));
    } else if (type === 'summary') {
      series.set(name, new Set([...labels, 'quantile']));
      series.set(`${name}_sum`, new Set(labels));
      series.set(`${name}_count`, new Set(labels));
    } else {
      series.set(name, new Set(labels));
    }
  }
  return series;
}

/** Metrics kept for one release under an old name (their HELP starts with "deprecated:"): no rule or panel may read them. */
export function deprecatedMetrics(): Set<string> {
  const registry = new Registry();
  createMetrics(registry, { version: 'test', detail: 'full' });
  return new Set(
    registry
      .getMetricsAsArray()
      .filter((m) => (m as unknown as { help: string }).help.startsWith('deprecated:'))
      .map((m) => m.name),
  );
}

/** Series names that only metrics.detail: full exports. */
export function fullOnlySeries(): Set<string> {
  const basic = exportedSeries('basic');
  return new Set([...exportedSeries('full').keys()].filter((name) => !basic.has(name)));
}

/** Whether an expression reads a series that the default metrics.detail (basic) does not export. */
export function needsFullDetail(expr: string, fullOnly: ReadonlySet<string> = fullOnlySeries()): boolean {
  return metricNamesIn(expr).some((name) => fullOnly.has(name));
}

/** Labels Prometheus adds to every scraped series. */
export const TARGET_LABELS: readonly string[] = ['job', 'instance'];

/**
 * Names of the exporter's own and prom-client's default metrics referenced in a PromQL expression.
 * Recording-rule names (`level:metric:operations`) are not metrics: see recordedNamesIn.
 */
export function metricNamesIn(expr: string): string[] {
  return [...new Set(expr.match(/(?<![\w:])(?:coherency|process|nodejs)_[a-zA-Z0-9_]+(?![\w:])/g) ?? [])];
}

/** Recording-rule series (names with a colon) referenced in a PromQL expression. */
export function recordedNamesIn(expr: string): string[] {
  const unquoted = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return [...new Set(unquoted.match(/(?<![\w:])[a-zA-Z_][a-zA-Z0-9_]*:[a-zA-Z0-9_:]*(?![\w:])/g) ?? [])];
}

/** `name{a="x", b=~"y"}` selectors of the exporter's metrics in an expression, with the label names they match on. */
export function selectorsIn(expr: string): { name: string; labels: string[] }[] {
  const out: { name: string; labels: string[] }[] = [];
  const unquoted = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const m of unquoted.matchAll(/(?<![\w:])((?:coherency|process|nodejs)_[a-zA-Z0-9_]+)\s*\{([^}]*)\}/g)) {
    const labels = [...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1] as string);
    out.push({ name: m[1] as string, labels });
  }
  return out;
}
