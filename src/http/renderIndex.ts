import type { Config } from '../config/types.js';
import type { RunResult } from '../probe/probeTypes.js';
import { formatAge, formatIn } from './formatAge.js';
import { escapeHtml as esc, htmlPage, verdictBadge } from './htmlPage.js';
import type { Comparison } from '../fingerprint/changeComparison.js';
import { comparisonHtml } from './renderChange.js';
import { renderRunButton } from './renderRunButton.js';

export interface IndexState {
  /** The newest runs of a target/probe in history, at most n, newest first. */
  recentRuns(target: string, probe: string, n: number): RunResult[];
  /** Whether that pair is running right now. */
  running(target: string, probe: string): boolean;
  /** When that pair's next scheduled run starts (ms since the epoch); null when it has none. */
  nextRun(target: string, probe: string): number | null;
  nowMs: number;
  /** True when server.authToken is set: the page offers to end the browser session. */
  session: boolean;
  /** The pair's figures across its target's last change; null before one (absent: none shown). */
  comparison?(target: string, probe: string): Comparison | null;
  /** The CSRF token the run buttons carry (csrfToken.ts): a form post without it starts nothing. */
  csrf: string;
}

/** Runs of each pair the index shows as a strip of coloured cells, oldest on the left. */
export const HISTORY_CELLS = 24;

/** A cell's tooltip: verdict and time, and for a collapse where in the output it started. */
function cellTitle(r: RunResult): string {
  const onsets = r.samples
    .map((s) => s.metrics?.content)
    .filter((m) => m !== null && m !== undefined && m.collapseOnset >= 0 && m.chars > 0)
    .map((m) => m!.collapseOnset / m!.chars);
  const onset = onsets.length ? `, collapse onset at ${Math.round(100 * Math.min(...onsets))}% of the output` : '';
  return `${r.verdict} ${r.startedAt.replace(/\.\d+Z$/, 'Z')}${onset}`;
}

/**
 * The landing page: every target x probe with its last verdict, how long ago, a link to that
 * run, and a button that POSTs /probe with the page's CSRF token (the answer redirects to the new run's page).
 */
export function renderIndex(config: Config, version: string, state: IndexState): string {
  const rows = config.targets
    .flatMap((t) =>
      t.probes.map((p) => {
        const probe = config.probes.find((x) => x.name === p);
        const recent = state.recentRuns(t.name, p, HISTORY_CELLS);
        const last = recent[0];
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
        const strip = recent.length
          ? `<span class="strip">${[...recent]
              .reverse()
              .map((r) => {
                const title = cellTitle(r);
                return `<a class="cell v-${esc(r.verdict)}" href="/runs/${encodeURIComponent(r.id)}" title="${esc(title)}" aria-label="${esc(title)}"></a>`;
              })
              .join('')}</span>`
          : '';
        const button = state.running(t.name, p) ? '<span class="muted">running…</span>' : renderRunButton(t.name, p, state.csrf);
        const change = state.comparison?.(t.name, p);
        const changeRow = change
          ? `\n<tr class="change-row" data-target="${esc(t.name)}" data-probe="${esc(p)}"><td></td><td colspan="9">${comparisonHtml(change, state.nowMs)}</td></tr>`
          : '';
        return (
          `<tr data-target="${esc(t.name)}" data-probe="${esc(p)}"><td>${esc(t.name)}</td><td>${esc(t.model)}</td><td>${esc(p)}</td><td>${esc(probe?.schedule ?? 'manual')}</td>` +
          `<td class="verdict">${verdictBadge(last?.verdict ?? null)}</td><td class="history">${strip}</td><td>${when}</td><td>${next}</td><td>${link} <a href="/runs?${q}">runs</a></td><td>${button}</td></tr>${changeRow}`
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
<p><a href="/metrics">Metrics</a> · <a href="/runs">Recent runs</a> · <a href="/-/healthy">Health</a>${logout}</p>
<table><tr><th>target</th><th>model</th><th>probe</th><th>schedule</th><th>last verdict</th><th>last ${HISTORY_CELLS} runs</th><th>when</th><th>next run</th><th></th><th></th></tr>
${rows}
</table>
<p class="muted">"run now" runs the probe and waits for it (a long probe takes as long as its generation), then shows the run.</p>`,
  );
}
