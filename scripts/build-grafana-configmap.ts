// Wraps grafana/coherency-dashboard.json into deploy/kubernetes/grafana-dashboard.yaml, a
// ConfigMap labelled grafana_dashboard: "1" for the dashboard sidecar of Grafana's Helm chart
// (kube-prometheus-stack's grafana.sidecar.dashboards), so the two cannot drift:
//   node --import tsx scripts/build-grafana-configmap.ts           write the manifest
//   node --import tsx scripts/build-grafana-configmap.ts --check   exit 1 when it is out of date
// The sidecar provisions the file as it is, without the import dialog that fills the
// dashboard's ${DS_PROMETHEUS} input: the copy drops __inputs and leaves the datasource
// variable unset, so Grafana picks its default Prometheus datasource.
// test/deploy/kubernetes.test.ts checks that the manifest is what this writes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from 'yaml';
import { writeGenerated } from './writeGenerated.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DASHBOARD = 'grafana/coherency-dashboard.json';
const MANIFEST = 'deploy/kubernetes/grafana-dashboard.yaml';

const HEADER = [
  ` Generated from ${DASHBOARD} by scripts/build-grafana-configmap.ts; do not edit by hand:`,
  ' change the dashboard there, then run  node --import tsx scripts/build-grafana-configmap.ts',
  '',
  " Grafana's dashboard sidecar loads every ConfigMap labelled grafana_dashboard (its default",
  ' label); it must watch this namespace (sidecar.dashboards.searchNamespace: ALL, or this one).',
].join('\n');

/** The dashboard as the sidecar should provision it: no import inputs, the datasource variable at Grafana's default. */
export function provisionedDashboard(dashboardText: string): Record<string, unknown> {
  const dashboard = JSON.parse(dashboardText) as Record<string, unknown> & { templating: { list: Record<string, unknown>[] } };
  const { __inputs: _inputs, ...rest } = dashboard;
  const list = dashboard.templating.list.map((v) => {
    if (v['type'] !== 'datasource') return v;
    const { current: _current, ...variable } = v;
    return variable;
  });
  return { ...rest, templating: { ...dashboard.templating, list } };
}

/** The ConfigMap manifest for the dashboard's text. */
export function buildGrafanaConfigMap(dashboardText: string): string {
  const doc = new Document({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'coherency-exporter-dashboard',
      labels: {
        'app.kubernetes.io/name': 'coherency-exporter',
        'app.kubernetes.io/part-of': 'coherency-exporter',
        grafana_dashboard: '1',
      },
    },
    data: { 'coherency-dashboard.json': `${JSON.stringify(provisionedDashboard(dashboardText), null, 2)}\n` },
  });
  doc.commentBefore = HEADER;
  return doc.toString({ lineWidth: 0 });
}

function main(argv: string[]): number {
  const built = buildGrafanaConfigMap(readFileSync(join(root, DASHBOARD), 'utf8'));
  return writeGenerated(root, MANIFEST, DASHBOARD, built, argv.includes('--check'), 'node --import tsx scripts/build-grafana-configmap.ts');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
