import type { Config } from '../config/types.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The landing page: what is configured and where to look, like other Prometheus exporters. */
export function renderIndex(config: Config, version: string): string {
  const rows = config.targets
    .flatMap((t) =>
      t.probes.map((p) => {
        const probe = config.probes.find((x) => x.name === p);
        const q = `target=${encodeURIComponent(t.name)}&amp;probe=${encodeURIComponent(p)}`;
        return `<tr><td>${esc(t.name)}</td><td>${esc(t.model)}</td><td>${esc(p)}</td><td>${esc(probe?.schedule ?? 'manual')}</td><td><a href="/probe?${q}">run now</a> · <a href="/runs?${q}">runs</a></td></tr>`;
      }),
    )
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>coherency-exporter</title></head>
<body>
<h1>coherency-exporter ${esc(version)}</h1>
<p><a href="/metrics">Metrics</a> · <a href="/runs">Recent runs</a> · <a href="/-/healthy">Health</a></p>
<table border="1" cellpadding="4"><tr><th>target</th><th>model</th><th>probe</th><th>schedule</th><th></th></tr>
${rows}
</table>
</body></html>
`;
}
