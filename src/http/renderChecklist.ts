import type { CheckResult, Evidence } from '../probe/conformance/checkTypes.js';
import { outcomeOf, type SampleResult } from '../probe/probeTypes.js';
import { escapeHtml as esc, verdictBadge } from './htmlPage.js';
import { escapeVisible } from './visibleText.js';

/**
 * One check's evidence as a small key/value list (values are short already; nothing here is a
 * credential). Values and details quote the server's answer: shown as they are (visibleText.ts).
 */
function evidenceList(evidence: Evidence): string {
  const rows = Object.entries(evidence);
  if (rows.length === 0) return '<span class="muted">–</span>';
  return `<dl class="evidence">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${escapeVisible(v === null ? 'null' : String(v))}</dd>`).join('')}</dl>`;
}

function checkRow(c: CheckResult): string {
  return `<tr class="check check-${esc(c.status)}" id="check-${esc(c.check)}">
<th scope="row">${esc(c.check)}</th><td>${verdictBadge(c.status)}</td><td><code>${esc(c.reason)}</code></td>
<td>${escapeVisible(c.detail)}</td><td>${evidenceList(c.evidence)}</td><td>${c.durationSeconds.toFixed(2)} s</td></tr>`;
}

/** A conformance sample as a checklist: each check, its verdict and reason, what decided it. */
export function renderChecklist(s: SampleResult): string {
  const outcome = outcomeOf(s, 'conformance');
  if (!outcome) return '';
  const failed = outcome.checks.filter((c) => c.status === 'fail').length;
  const skipped = outcome.checks.filter((c) => c.status === 'skipped').length;
  const summary = `${outcome.checks.length} checks: ${outcome.checks.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`;
  const reasoning = outcome.reasoningModel === null ? 'not known' : outcome.reasoningModel ? 'reasons' : 'does not reason';
  const error = s.error ? `<p class="error">${esc(s.error.type)}: ${escapeVisible(s.error.message)}</p>` : '';
  const notes = s.notes.length ? `<ul>${s.notes.map((n) => `<li>${escapeVisible(n)}</li>`).join('')}</ul>` : '';
  return `<section class="sample checklist" id="s${s.index}">
<h2>Checklist ${verdictBadge(s.verdict)}</h2>
<p>${esc(summary)} · model ${esc(reasoning)} · took ${s.durationSeconds.toFixed(2)} s</p>${error}${notes}
<table class="checks"><thead><tr><th>check</th><th>verdict</th><th>reason</th><th>what was seen</th><th>evidence</th><th>time</th></tr></thead>
<tbody>
${outcome.checks.map(checkRow).join('\n')}
</tbody></table>
</section>`;
}
