/**
 * Reads the PromQL out of grafana/coherency-dashboard.json with the template variables
 * expanded the way Grafana would for "All", so the queries can be checked statically
 * here and evaluated against a real Prometheus by the integration test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/repoRoot.js';

export interface DashboardTarget {
  refId?: string;
  expr?: string;
  hide?: boolean;
  datasource?: unknown;
  [key: string]: unknown;
}

export interface DashboardPanel {
  id?: number;
  type?: string;
  title?: string;
  datasource?: unknown;
  gridPos?: { h: number; w: number; x: number; y: number };
  targets?: DashboardTarget[];
  panels?: DashboardPanel[];
  [key: string]: unknown;
}

export interface DashboardVariable {
  name: string;
  type: string;
  query?: unknown;
  definition?: string;
  datasource?: unknown;
  [key: string]: unknown;
}

export interface Dashboard {
  panels: DashboardPanel[];
  templating: { list: DashboardVariable[] };
  [key: string]: unknown;
}

/** Values for "All" of our variables and for Grafana's built-in intervals. */
export const VARIABLE_VALUES: Readonly<Record<string, string>> = Object.freeze({
  target: '.*',
  probe: '.*',
  channel: '.*',
  window: '1h',
  __rate_interval: '1m',
  __interval: '1m',
  __range: '5m',
});

/**
 * The values a first import shows: each variable's saved `current`, formatted as Grafana
 * formats a Prometheus regex variable ("All" → its allValue, several values → `(a|b)`),
 * with Grafana's built-in intervals as in VARIABLE_VALUES.
 */
export function savedDefaults(dashboard: Dashboard): Record<string, string> {
  const out: Record<string, string> = { ...VARIABLE_VALUES };
  for (const v of dashboard.templating.list) {
    const current = (v['current'] as { value?: string | string[] } | undefined)?.value;
    if (current === undefined || v.type === 'datasource') continue;
    const values = [current].flat();
    if (values.includes('$__all')) {
      const all = typeof v['allValue'] === 'string' && v['allValue'] !== '' ? v['allValue'] : null;
      if (all === null) throw new Error(`variable ${v.name}: "All" is saved but there is no allValue to expand it to`);
      out[v.name] = all;
    } else {
      out[v.name] = values.length === 1 ? (values[0] as string) : `(${values.join('|')})`;
    }
  }
  return out;
}

/** Replaces $name, ${name} and ${name:format}; an unknown variable is an error, not a silent gap. */
export function expandVariables(text: string, values: Readonly<Record<string, string>> = VARIABLE_VALUES): string {
  return text.replace(/\$\{(\w+)(?::[^}]*)?\}|\$(\w+)/g, (match, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    const value = values[name];
    if (value === undefined) throw new Error(`unknown template variable ${match} in: ${text}`);
    return value;
  });
}

/** Every panel, rows and the panels inside collapsed rows included, in document order. */
export function allPanels(dashboard: Dashboard): DashboardPanel[] {
  const out: DashboardPanel[] = [];
  const walk = (panels: DashboardPanel[] | undefined): void => {
    for (const panel of panels ?? []) {
      out.push(panel);
      walk(panel.panels);
    }
  };
  walk(dashboard.panels);
  return out;
}

export interface PanelQuery {
  /** The panel's id (several queries of one panel share it). */
  panelId: number | undefined;
  title: string;
  expr: string;
  /** Grafana runs it as an instant query (stat and table panels), at the end of the time range. */
  instant: boolean;
}

/** Every panel query, variables expanded. Titles get " [refId]" when a panel has several queries. */
export function dashboardQueries(dashboard: Dashboard, values: Readonly<Record<string, string>> = VARIABLE_VALUES): PanelQuery[] {
  const out: PanelQuery[] = [];
  for (const panel of allPanels(dashboard)) {
    const targets = (panel.targets ?? []).filter((t) => typeof t.expr === 'string' && t.expr.trim() !== '');
    for (const t of targets) {
      const title = targets.length > 1 ? `${panel.title ?? ''} [${t.refId ?? '?'}]` : (panel.title ?? '');
      out.push({
        panelId: panel.id,
        title,
        expr: expandVariables(t.expr as string, values),
        instant: t['instant'] === true && t['range'] !== true,
      });
    }
  }
  return out;
}

/**
 * The series selector of every query variable (`label_values(SELECTOR, label)`), expanded:
 * what the Prometheus series API must answer for the variable to have values.
 */
export function templateVariableQueries(dashboard: Dashboard): { name: string; label: string; selector: string }[] {
  const out: { name: string; label: string; selector: string }[] = [];
  for (const v of dashboard.templating.list) {
    if (v.type !== 'query') continue;
    const q = typeof v.query === 'string' ? v.query : (v.query as { query?: string } | undefined)?.query;
    const m = /^\s*label_values\(\s*(.+)\s*,\s*(\w+)\s*\)\s*$/.exec(q ?? '');
    if (!m) throw new Error(`variable ${v.name}: expected label_values(selector, label), got ${String(q)}`);
    out.push({ name: v.name, label: m[2] as string, selector: expandVariables(m[1] as string) });
  }
  return out;
}

export { repoRoot };

export const DASHBOARD_PATH = join('grafana', 'coherency-dashboard.json');

export function loadDashboard(root: string = repoRoot()): Dashboard {
  return JSON.parse(readFileSync(join(root, DASHBOARD_PATH), 'utf8')) as Dashboard;
}
