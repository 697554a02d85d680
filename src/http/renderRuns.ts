import type { Config } from '../config/types.js';
import { findingKinds } from '../probe/judgeSample.js';
import { SAMPLE_VERDICTS, type RunResult } from '../probe/probeTypes.js';
import type { RunFilter } from '../state/runHistory.js';
import { formatAge } from './formatAge.js';
import { escapeHtml as esc, htmlPage, verdictBadge } from './htmlPage.js';

/** A query string of the filter's set fields (`&amp;`-joined, for an attribute), with a leading `?` when not empty. */
export function filterQuery(filter: Record<string, string | number | undefined>): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&amp;')}` : '';
}

function select(name: string, values: readonly string[], chosen: string | undefined): string {
  const options = ['', ...values].map(
    (v) => `<option value="${esc(v)}"${v === (chosen ?? '') ? ' selected' : ''}>${v === '' ? 'any' : esc(v)}</option>`,
  );
  return `<label>${name} <select name="${name}">${options.join('')}</select></label>`;
}

/**
 * GET /runs for a browser: the runs newest first in a table, a form that filters them by
 * target, probe and verdict (a plain GET form: the pages run no script), each run linking to
 * its page. The same list as the JSON answer.
 */
export function renderRuns(config: Config, runs: readonly RunResult[], filter: RunFilter, nowMs: number): string {
  const rows = runs
    .map((r) => {
      const samples = r.samples
        .map((s) => {
          const kinds = findingKinds(s.findings);
          const why = s.error ? s.error.type : kinds.join(', ');
          return `${verdictBadge(s.verdict)}${why ? ` <span class="muted">${esc(why)}</span>` : ''}`;
        })
        .join('<br>');
      const age = formatAge((nowMs - Date.parse(r.startedAt)) / 1000);
      return (
        `<tr data-verdict="${esc(r.verdict)}" data-target="${esc(r.target)}" data-probe="${esc(r.probe)}">` +
        `<td><a href="/runs/${encodeURIComponent(r.id)}"><time datetime="${esc(r.startedAt)}">${esc(r.startedAt.replace(/\.\d+Z$/, 'Z'))}</time></a> <span class="muted">${esc(age)}</span></td>` +
        `<td>${esc(r.target)}</td><td>${esc(r.probe)}</td><td class="verdict">${verdictBadge(r.verdict)}</td>` +
        `<td>${samples}</td><td>${esc(r.trigger)}</td><td>${r.durationSeconds.toFixed(1)} s</td></tr>`
      );
    })
    .join('\n');
  const json = `/runs${filterQuery({ target: filter.target, probe: filter.probe, verdict: filter.verdict, limit: filter.limit, format: 'json' })}`;
  const filtered = filter.target || filter.probe || filter.verdict;
  return htmlPage(
    'Runs · coherency-exporter',
    `<h1>Runs</h1>
<p><a href="/">index</a> · <a href="${json}">JSON</a></p>
<form class="filters" method="get" action="/runs">${select(
      'target',
      config.targets.map((t) => t.name),
      filter.target,
    )} ${select(
      'probe',
      config.probes.map((p) => p.name),
      filter.probe,
    )} ${select('verdict', SAMPLE_VERDICTS, filter.verdict)} <button type="submit">filter</button>${filtered ? ' <a href="/runs">all runs</a>' : ''}</form>
<p class="muted">${runs.length} run${runs.length === 1 ? '' : 's'}${filtered ? ' matching' : ''}, newest first</p>
${
  runs.length
    ? `<table class="runs"><tr><th>started</th><th>target</th><th>probe</th><th>verdict</th><th>samples</th><th>trigger</th><th>took</th></tr>
${rows}
</table>`
    : '<p>No run yet.</p>'
}`,
  );
}
