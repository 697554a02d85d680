import type { Analysis, AnalysisScore } from './analysisTypes.js';
import { fmt } from './detectors/finding.js';

/** Copies as the loop's reason writes them ("repeated 8.9 times"), so the report never gives two counts. */
const copies = (x: number) => fmt(x, 1);

export interface FormatOptions {
  /** Title line, e.g. the file name or "content". */
  title?: string;
  /** What the caller judged beside the detectors (`analyze --expect-language`), as "- fail kind: detail" lines under them. */
  also?: ReadonlyArray<{ severity: string; kind: string; detail: string }>;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function str(v: number | string | undefined): string {
  return v === undefined ? '-' : String(v);
}

/**
 * A readable plain-text report of one analysis: verdict and reasons first, then where
 * the loop starts with an excerpt, then the figures. No colours; fits 100 columns.
 */
export function formatReport(analysis: Analysis, options: FormatOptions = {}): string {
  const m = analysis.metrics;
  const out: string[] = [];
  out.push(`${options.title ? options.title + ': ' : ''}verdict ${analysis.verdict.toUpperCase()}`);
  if (analysis.findings.length === 0) out.push('  no degeneration found');
  for (const f of analysis.findings) {
    out.push(`  - ${f.severity}${f.certain ? ' (certain)' : ''} ${f.kind}: ${f.detail}${f.rule ? ` (rule ${f.rule})` : ''}`);
    if (f.atChar >= 0) out.push(`      at char ${f.atChar}${f.atToken >= 0 ? ` (token ${f.atToken})` : ''}: "${f.excerpt}"`);
  }
  for (const f of options.also ?? []) out.push(`  - ${f.severity} ${f.kind}: ${f.detail}`);
  if (Number(m['collapseOnset']) >= 0) {
    out.push(
      `collapse (${str(m['collapseKind'])}) starts at char ${m['collapseOnset']}` +
        (Number(m['collapseOnsetToken']) >= 0 ? ` (token ${m['collapseOnsetToken']})` : '') +
        ` of ${m.chars} (${((100 * Number(m['collapseOnset'])) / Math.max(1, m.chars)).toFixed(0)}% of the way in)`,
    );
  }
  if (m.repeatCount > 0) {
    out.push('');
    out.push(
      `repeat (${str(m['repeatKind']) || 'repeat'}): ${copies(m.repeatCopies)} copies of a ${m.repeatPeriod}-char unit from char ${m.repeatOnset}` +
        (Number(m['repeatOnsetToken']) >= 0 ? ` (token ${m['repeatOnsetToken']})` : '') +
        `, similarity ${str(m['repeatSimilarity'])}, loops cover ${pct(m.repeatCoverage)} of the text`,
    );
    out.push(`  unit: "${m.repeatExcerpt}"`);
    // Say why a repeat shown here is not a finding, so the report never contradicts itself.
    const reported = analysis.findings.some((f) => f.kind === m.repeatKind && f.atChar === m.repeatOnset);
    if (!reported) {
      out.push(
        `  not counted: ${m.repeatChars} chars in ${copies(m.repeatCopies)} copies is below the sizes that count, or the text moves on after it, and it does not run into the token limit`,
      );
    }
  }
  out.push('');
  const rows: Array<[string, string]> = [
    ['chars / bytes / words', `${m.chars} / ${m.bytes} / ${m.words}`],
    ['gzip ratio (lower = more repetitive)', str(m.compressionRatio)],
    ['longest word run', m.longestWordRun > 0 ? `${m.longestWordRun} × "${m.longestWordRunWord}"` : '0'],
    ['most repeated line', m.topLineRepeats > 0 ? `${m.topLineRepeats} × "${m.topLine}"` : '-'],
    ['duplicate-line fraction', str(m['duplicateLineFraction'])],
    ['top 2-gram / duplicate 10-gram char fraction', `${str(m.top2gramCharFraction)} / ${str(m.dup10gramCharFraction)}`],
    ['repeat returns / novelty', `${str(m.repeatReturns)} / ${str(m.repeatNovelty)}`],
    ['unique-word ratio', str(m.uniqueWordRatio)],
    ['longest whitespace run', str(m['longestWhitespaceRun'])],
    ['whitespace / punctuation share', `${str(m['whitespaceShare'])} / ${str(m['punctuationShare'])}`],
    ['script of the text', str(m.openingScript)],
    ['malformed-word share / stutter share', `${str(m.malformedShare)} / ${str(m.stutterShare)}`],
    ['letters in another script (longest run)', str(m.scriptSwitchLetters)],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) out.push(`${k.padEnd(w)}  ${v}`);
  if (analysis.score) out.push('', ...scoreLines(analysis.score));
  if (analysis.scoreError !== undefined) out.push('', `learned model: no score (${analysis.scoreError}); the rules decided`);
  return out.join('\n') + '\n';
}

/** The learned model's probability and the figures that moved it: the verdict's why in 'learned' mode, information in 'rules' mode. */
export function scoreLines(score: AnalysisScore): string[] {
  const role = score.mode === 'learned' ? 'decides with the hard rules' : 'information only: the rules decide';
  const out = [
    `learned model (${role}): probability ${score.probability.toFixed(3)}, fail from ${score.threshold.toFixed(3)}, warn from ${score.warnFrom.toFixed(3)}`,
  ];
  for (const [name, c] of score.contributions) out.push(`  ${c >= 0 ? '+' : '-'}${Math.abs(c).toFixed(2)}  ${name}`);
  return out;
}
