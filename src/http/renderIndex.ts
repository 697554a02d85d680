import type { Config } from '../config/types.js';
import type { RunResult } from '../probe/probeTypes.js';
import { formatAge, formatIn } from './formatAge.js';
import { escapeHtml as esc, htmlPage, verdictBadge } from './htmlPage.js';

export interface IndexState {
  /** The newest run of a target/probe in history, if any. */
  lastRun(target: string, probe: string): RunResult | undefined;
  /** Whether that pair is running right now. */
  running(target: string, probe: string): boolean;
  /** When that pair's next scheduled run starts (ms since the epoch); null when it has none. */
  nextRun(target: string, probe: string): number | null;
  nowMs: number;
  /** True when server.authToken is set: the page offers to end the browser session. */
  session: boolean;
}

/**
 * The landing page: every target x probe with its last verdict, how long ago, a link to that
 * run, and a button that POSTs /probe (the answer redirects to the new run's page).
 */
export function renderIndex(config: Config, version: string, state: IndexState): string {
  const rows = config.targets
    .flatMap((t) =>
      t.probes.map((p) => {
        const probe = config.probes.find((x) => x.name === p);
        const last = state.lastRun(t.name, p);
        const when = last
          ? `<time datetime="${esc(last.startedAt)}" title="${esc(last.startedAt)}">${esc(formatAge((state.nowMs - Date.parse(last.startedAt)) / 1000))}</time>` +
            ` <span class="muted">${esc(last.startedAt.replace(/\.\d+Z$/, 'Z'))}</span>`
          : '<span class="muted">never</span>';
        const nextAt = state.nextRun(t.name, p);
        const next =
          nextAt === null
            ? '<span class="muted">manual only</span>'
            : `<time class="next" datetime="${new Date(nextAt).toISOString()}" title="${new Date(nextAt).toISOString()}">${esc(formatIn((nextAt - state.nowMs) / 1000))}</time>`;
        const link = last ? `<a href="/runs/${encodeURIComponent(last.id)}">last run</a>` : '';
        const q = `target=${encodeURIComponent(t.name)}&amp;probe=${encodeURIComponent(p)}`;
        const button = state.running(t.name, p)
          ? '<span class="muted">running…</span>'
          : `<form class="inline" method="post" action="/probe"><input type="hidden" name="target" value="${esc(t.name)}"><input type="hidden" name="probe" value="${esc(p)}"><button type="submit">run now</button></form>`;
        return (
          `<tr data-target="${esc(t.name)}" data-probe="${esc(p)}"><td>${esc(t.name)}</td><td>${esc(t.model)}</td><td>${esc(p)}</td><td>${esc(probe?.schedule ?? 'manual')}</td>` +
          `<td class="verdict">${verdictBadge(last?.verdict ?? null)}</td><td>${when}</td><td>${next}</td><td>${link} <a href="/runs?${q}">runs (JSON)</a></td><td>${button}</td></tr>`
        );
      }),
    )
    .join('\n');
  const logout = state.session
    ? ' · <form class="inline" method="post" action="/-/logout"><button type="submit">log out</button></form>'
    : '';
  return htmlPage(
    'coherency-exporter',
    `<h1>coherency-exporter ${esc(version)}</h1>
<p><a href="/metrics">Metrics</a> · <a href="/runs">Recent runs (JSON)</a> · <a href="/-/healthy">Health</a>${logout}</p>
<table><tr><th>target</th><th>model</th><th>probe</th><th>schedule</th><th>last verdict</th><th>when</th><th>next run</th><th></th><th></th></tr>
${rows}
</table>
<p class="muted">"run now" runs the probe and waits for it (a long probe takes as long as its generation), then shows the run.</p>`,
  );
}
