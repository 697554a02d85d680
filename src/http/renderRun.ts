import type { TextMetrics } from '../core/analysisTypes.js';
import { describeAnswerLanguage } from '../core/answerLanguage.js';
import type { RunResult, SampleFinding, SampleResult } from '../probe/probeTypes.js';
import { formatAge } from './formatAge.js';
import type { Comparison } from '../fingerprint/changeComparison.js';
import { comparisonHtml, fingerprintHtml } from './renderChange.js';
import { escapeHtml as esc, htmlPage, verdictBadge } from './htmlPage.js';
import { markOutput, visibleWhitespace } from './markOutput.js';
import { renderChecklist } from './renderChecklist.js';
import { copiesText, finishText, temperatureText } from './sampleFacts.js';
import { escapeVisible } from './visibleText.js';

type Channel = 'content' | 'reasoning';

const seconds = (x: number | null) => (x === null ? '–' : `${x.toFixed(3)} s`);
const num = (x: number | null, digits = 0) => (x === null ? '–' : x.toFixed(digits));

/**
 * The failed run as a person wants to see it: the verdict, then per sample its reasons and the
 * output with the collapse marked (what a 1280x900 window shows first), then the figures; the
 * target's fingerprint last, folded when the target said nothing about itself.
 */
export function renderRun(run: RunResult, nowMs: number, comparison: Comparison | null = null): string {
  const age = formatAge((nowMs - Date.parse(run.startedAt)) / 1000);
  const id = encodeURIComponent(run.id);
  const head = `<h1>Run <code>${esc(run.id)}</code> ${verdictBadge(run.verdict)}</h1>
<p>target <b>${esc(run.target)}</b> · probe <b>${esc(run.probe)}</b> · ${esc(run.trigger)} ·
started <time datetime="${esc(run.startedAt)}">${esc(run.startedAt)}</time> (${esc(age)}) · took ${seconds(run.durationSeconds)} ·
<a href="/runs/${id}?format=json">JSON</a> · <a href="/">index</a></p>${comparison ? `\n${comparisonHtml(comparison, nowMs)}` : ''}`;
  const tail = run.fingerprint ? `\n${fingerprintHtml(run.fingerprint)}` : '';
  return htmlPage(
    `${run.verdict} · ${run.target} / ${run.probe} · coherency-exporter`,
    `${head}\n${run.samples.map((s, i) => renderSampleSafely(s, i)).join('\n')}${tail}`,
  );
}

/**
 * A sample of a stored run may be damaged in a way the store's repair did not foresee (a
 * figure of the wrong type deep in its metrics): that sample says so, the rest of the page stands.
 */
function renderSampleSafely(s: SampleResult, i: number): string {
  try {
    return s.outcome?.kind === 'conformance' ? renderChecklist(s) : renderSample(s);
  } catch (err) {
    return `<section class="sample" id="s${i}">
<h2>Sample ${i}</h2>
<p class="error">This sample's stored record is damaged and cannot be shown (${esc(err instanceof Error ? err.message : String(err))}); <a href="?format=json">the JSON</a> has what is left of it.</p>
</section>`;
  }
}

function renderSample(s: SampleResult): string {
  const prefix = `s${s.index}`;
  const reasons = s.reasons.length
    ? `<ul class="reasons">${s.reasons.map((r) => `<li>${escapeVisible(r)}</li>`).join('')}</ul>`
    : '<p class="muted">no findings</p>';
  const rules = rulesFired(s.findings);
  const learned = learnedScore(s);
  const notes = s.notes.length ? `<h3>Notes</h3><ul>${s.notes.map((n) => `<li>${escapeVisible(n)}</li>`).join('')}</ul>` : '';
  const error = s.error ? `<p class="error">${esc(s.error.type)}: ${escapeVisible(s.error.message)}</p>` : '';
  const content = channelOutput(s, 'content');
  const reasoning = channelOutput(s, 'reasoning');
  const links = [
    content.onset || reasoning.onset
      ? `<a href="#${prefix}-${content.onset ? 'content' : 'reasoning'}-onset">Jump to the collapse onset</a>`
      : '',
    `<a href="#${prefix}-figures">Figures</a>`,
  ].filter((l) => l !== '');
  // Reasoning is folded away unless the collapse is only there.
  const openReasoning = reasoning.onset && !content.onset ? ' open' : '';
  // What a person reads first: the reasons, then the output; the figures that back them follow it.
  return `<section class="sample" id="${prefix}">
<h2>Sample ${s.index} ${verdictBadge(s.verdict)}</h2>
${reasons}${error}${notes}<p>${links.join(' · ')}</p>
<h3>Content <span class="muted">(${s.contentChars} chars)</span></h3>
${s.content ? `<pre class="output" id="${prefix}-content">${content.html}</pre>` : '<p class="muted">no content</p>'}
${
  s.reasoning
    ? `<details${openReasoning}><summary>Reasoning <span class="muted">(${s.reasoningChars} chars)</span></summary>
<pre class="output" id="${prefix}-reasoning">${reasoning.html}</pre></details>`
    : ''
}
<div class="cols" id="${prefix}-figures"><div><h3>Figures</h3>${figures(s)}</div>${rules || learned ? `<div>${rules}${learned}</div>` : ''}</div>
</section>`;
}

/** The rule of the detector's table behind each finding that names one ("content gibberish: codeChunkShare"), '' when none does. */
function rulesFired(findings: readonly SampleFinding[]): string {
  const named = findings.filter((f) => typeof f.rule === 'string' && f.rule !== '');
  if (named.length === 0) return '';
  const items = named.map(
    (f) => `<li>${f.channel === 'sample' ? '' : `${esc(f.channel)}: `}${esc(f.kind)}: <code>${esc(f.rule!)}</code></li>`,
  );
  return `<h3>Rules that fired</h3><ul class="rules">${items.join('')}</ul>`;
}

/**
 * The learned model's probability and the figures that moved it most, per channel: why the
 * verdict is what it is in 'learned' mode, information beside the rules otherwise.
 */
function learnedScore(s: SampleResult): string {
  const parts: string[] = [];
  for (const channel of ['content', 'reasoning'] as const) {
    const score = s.score?.[channel];
    if (!score) continue;
    const role = score.mode === 'learned' ? 'decides with the hard rules' : 'information only: the rules decide';
    const items = score.contributions.map(
      ([name, c]) => `<li><code>${c >= 0 ? '+' : '−'}${Math.abs(c).toFixed(2)}</code> ${esc(name)}</li>`,
    );
    parts.push(
      `<p>${esc(channel)}: probability <b>${score.probability.toFixed(3)}</b> (fail from ${score.threshold.toFixed(3)}, warn from ${score.warnFrom.toFixed(3)}; ${role})</p><ul class="rules">${items.join('')}</ul>`,
    );
  }
  return parts.length ? `<h3>Learned model</h3>${parts.join('')}` : '';
}

/** A channel's text with its collapse onset and its reported loop marked. */
function channelOutput(s: SampleResult, channel: Channel): { html: string; onset: boolean } {
  const text = s[channel];
  const m: TextMetrics | null | undefined = s.metrics?.[channel];
  const findings = s.findings.filter((f) => f.channel === channel);
  const onset = collapseOnset(m, findings);
  // Only a loop the analysis reported is highlighted: every text has some small repeat.
  const reported =
    m && m.repeatPeriod > 0 && m.repeatOnset >= 0 && findings.some((f) => f.atChar === m.repeatOnset && f.kind === m.repeatKind);
  const loop = reported ? { start: m.repeatOnset, period: m.repeatPeriod, end: m.repeatEnd } : null;
  const token = onset >= 0 ? findings.find((f) => f.atChar === onset && f.atToken >= 0)?.atToken : undefined;
  const onsetTitle = `collapse onset: char ${onset}${token !== undefined ? `, token ${token}` : ''}`;
  // Blanks only: shown as the marks they are, not as an empty box.
  if (text.length > 0 && text.trim() === '') return { html: visibleWhitespace(text), onset: onset >= 0 };
  return { html: markOutput(text, { onset, loop, id: `s${s.index}-${channel}`, onsetTitle }), onset: onset >= 0 && text.length > 0 };
}

/** Where the channel's collapse starts: the metrics' onset, else the earliest placed failing finding; -1 when it did not fail. */
function collapseOnset(m: TextMetrics | null | undefined, findings: SampleFinding[]): number {
  if (m && m.collapseOnset >= 0) return m.collapseOnset;
  const placed = findings.filter((f) => f.severity === 'fail' && f.atChar >= 0).map((f) => f.atChar);
  return placed.length ? Math.min(...placed) : -1;
}

function figures(s: SampleResult): string {
  const m = s.metrics?.content;
  const rows: [string, string][] = [
    ['output tokens', num(s.outputTokens)],
    ['finish reason', finishText(s) ?? '–'],
    ['time to first token', seconds(s.ttftSeconds)],
    ['duration', seconds(s.durationSeconds)],
    ['tokens per second', num(s.tokensPerSecond, 1)],
    ['aborted early', s.aborted ? `yes, at ${s.tokensAtAbort ?? '?'} tokens (${s.tokensSaved} saved)` : 'no'],
  ];
  const temperature = temperatureText(s);
  if (temperature !== null) rows.push(['temperature', temperature]);
  if (s.adherence) {
    const a = s.adherence;
    if (a.coverage !== null) {
      const missing = a.missing.length ? `; missing ${a.missing.join(', ')}` : '';
      rows.push([
        'prompt keywords',
        `${a.matched.length} of ${a.matched.length + a.missing.length} (${Math.round(a.coverage * 100)}%)${missing}`,
      ]);
    }
    rows.push(['markdown headings', String(a.headings)]);
    if (a.language) rows.push(['answer language', describeAnswerLanguage(a.language)]);
  }
  if (s.logprobs) {
    const l = s.logprobs;
    rows.push(['mean logprob', `${num(l.meanLogprob, 3)} over ${l.tokens} tokens`]);
    rows.push([
      'last tokens near-certain',
      `${Math.round(l.tailNearCertainRatio * 100)}% of ${l.tailTokens} (mean logprob ${num(l.tailMeanLogprob, 3)})`,
    ]);
  }
  if (m) {
    if (m.collapseOnset >= 0) {
      const share = m.chars > 0 ? ` (${Math.round((100 * m.collapseOnset) / m.chars)}% in)` : '';
      rows.push([
        'collapse',
        `${m.collapseKind} at char ${m.collapseOnset}${m.collapseOnsetToken >= 0 ? `, token ${m.collapseOnsetToken}` : ''}${share}`,
      ]);
    }
    if (m.repeatPeriod > 0) {
      rows.push([
        'repeat',
        `${m.repeatKind || 'repeat'}: ${copiesText(m.repeatCopies ?? m.repeatCount)} copies of a ${m.repeatPeriod}-char unit from char ${m.repeatOnset}`,
      ]);
      rows.push(['repeated unit', m.repeatExcerpt]);
    }
    rows.push(['repeat coverage', num(m.repeatCoverage, 3)]);
    rows.push(['compression ratio', num(m.compressionRatio, 3)]);
    rows.push(['unique word ratio', m.words === 0 ? '– (no words)' : num(m.uniqueWordRatio, 3)]);
  }
  // values quote the output (the repeated unit): shown as it is, like the output itself
  return `<table class="figures">${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${escapeVisible(v)}</td></tr>`).join('')}</table>`;
}
