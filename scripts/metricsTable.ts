// Prints the README's metrics table from the registry itself, so the table cannot drift:
//   node --import tsx scripts/metricsTable.ts
import { Registry } from 'prom-client';
import { createMetrics } from '../src/metrics/createMetrics.js';

const registry = new Registry();
createMetrics(registry, { version: 'x', defaultMetrics: false });
type Described = { name: string; help: string; type: string; labelNames: string[] };
const rows = (registry.getMetricsAsArray() as unknown as Described[]).map((m) => {
  const labels = m.labelNames.map((l) => `\`${l}\``).join(', ') || '—';
  return `| \`${m.name}\` | ${m.type} | ${labels} | ${m.help.replace(/\|/g, '\\|')} |`;
});
console.log('| metric | type | labels | meaning |\n|---|---|---|---|\n' + rows.join('\n'));
