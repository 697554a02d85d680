/**
 * Turns every detector's figures into the public Analysis: findings (after the verdict
 * rules), the verdict, reason lines derived from findings, and the fixed metrics.
 */
import type { Analysis, AnalysisScore, TextMetrics, Verdict, VerdictMode } from './analysisTypes.js';
import type { JudgeContext } from './detectors/detector.js';
import { excerptOf } from './detectors/finding.js';
import type { Figures, Thresholds } from './detectors/registry.js';
import { type Loop, REPETITION_KINDS } from './detectors/repetition/repetition.js';
import { type BaseFigures, type Engine, judgeAll } from './engine.js';
import { type Finding, reasonOf } from './finding.js';
import { lastAtOrBelow } from './lastAtOrBelow.js';
import { learnedFindings, scoreText } from './learnedVerdict.js';
import type { VerdictModel } from './verdictModel.js';
import { applyRules, collapseFinding, collapseOnset } from './verdictRules.js';

const EXCERPT = 120;

export interface BuildOptions {
  thresholds: Thresholds;
  slice: (from: number, to: number) => string;
  /** Char offsets where each stream token starts (ascending), to report token indexes. */
  tokenOffsets?: ArrayLike<number> | undefined;
  /** How the generation ended, when known ('length': cut by the token limit). */
  finishReason?: string | null | undefined;
  /** The stream is still running (see JudgeContext.partial). */
  partial?: boolean | undefined;
  /** The learned verdict's model: a finished text gets its score (a partial one does not). */
  model?: VerdictModel | undefined;
  /** Who decides: the rules (default), or the model with the hard rules ('learned', needs a model). */
  verdict?: VerdictMode | undefined;
  /** The language the answer was asked in (see JudgeContext.expectLanguage). */
  expectLanguage?: string | null | undefined;
}

function tokenIndexAt(offsets: ArrayLike<number> | undefined, charOffset: number): number {
  return !offsets || charOffset < 0 ? -1 : lastAtOrBelow(offsets, charOffset);
}

export function judgeContext(chars: number, o: BuildOptions): JudgeContext {
  return { chars, finishReason: o.finishReason ?? null, partial: o.partial === true, expectLanguage: o.expectLanguage ?? null };
}

export function buildAnalysis(base: BaseFigures, figures: Figures, raw: readonly Finding[], o: BuildOptions): Analysis {
  const ruled = applyRules(raw);
  // The model reads the rules' findings, as in training; only the finished text is scored (bounded: the tail and one pass).
  // A score that cannot be computed loses the score, never the rules' verdict.
  let score: AnalysisScore | undefined;
  let scoreError: string | undefined;
  if (o.model && !o.partial) {
    try {
      score = scoreText({ base, detectors: figures }, ruled, o.slice, o.model, o.verdict ?? 'rules');
    } catch (err) {
      scoreError = err instanceof Error ? err.message : String(err);
    }
  }
  const decided = score && o.model && score.mode === 'learned' ? learnedFindings(ruled, score, o.model) : ruled;
  const findings = decided.map((f) => ({
    ...f,
    atToken: f.atToken >= 0 ? f.atToken : tokenIndexAt(o.tokenOffsets, f.atChar),
    excerpt: f.excerpt || (f.atChar >= 0 ? excerptOf(o.slice(f.atChar, f.atChar + 100), 80) : ''),
  }));
  const verdict: Verdict = findings.some((f) => f.severity === 'fail') ? 'fail' : findings.length > 0 ? 'warn' : 'ok';
  const collapse = collapseFinding(findings);
  const onset = collapseOnset(findings);
  const certain = findings.some((f) => f.certain && f.severity === 'fail');
  const analysis: Analysis = {
    verdict,
    findings,
    reasons: findings.map(reasonOf),
    metrics: textMetrics(base, figures, findings, o, { verdict, onset, kind: collapse?.kind ?? '', certain }),
  };
  if (score) analysis.score = score;
  if (scoreError !== undefined) analysis.scoreError = scoreError;
  return analysis;
}

function textMetrics(
  base: BaseFigures,
  d: Figures,
  findings: readonly Finding[],
  o: BuildOptions,
  c: { verdict: Verdict; onset: number; kind: string; certain: boolean },
): TextMetrics {
  const chars = base.chars;
  const tx = base.text;
  // the repeat reported: the one at the end, else the largest the text moved on from
  const rep = d.repetition;
  // a repeat worth showing: copies back to back, or an end that keeps returning to the same material
  const shown = (l: Loop | null) => (l && (l.copies >= 2 || l.returns >= 3) ? l : null);
  const loop: Loop | null = shown(rep.tail) ?? shown(rep.recovered);
  const kind = loop ? (findings.find((f) => f.atChar === loop.onset && isRepeatKind(f.kind))?.kind ?? '') : '';
  return {
    chars,
    bytes: base.bytes,
    words: tx.words,
    compressionRatio: round(base.compression.ratio),
    longestWordRun: tx.longestWordRun,
    longestWordRunWord: tx.longestWordRunWord,
    topLineRepeats: tx.topLineRepeats,
    topLine: tx.topLine,
    uniqueWordRatio: tx.words === 0 ? 1 : round(tx.distinctWords / tx.words),
    repeatPeriod: loop ? loop.periodChars : 0,
    repeatCount: loop ? Math.floor(loop.copies) : 0,
    repeatCopies: loop ? round(loop.copies) : 0,
    repeatOnset: loop ? loop.onset : -1,
    repeatCoverage: loop ? round(Math.min(1, loop.coverage)) : 0,
    repeatExcerpt: loop ? excerptOf(o.slice(loop.unitStart, loop.unitEnd), EXCERPT) : '',
    repeatKind: kind,
    repeatPeriodTokens: loop ? loop.periodTokens : 0,
    repeatChars: loop ? loop.end - loop.onset : 0,
    repeatEnd: loop ? loop.end : -1,
    repeatSimilarity: loop ? round(loop.similarity) : 0,
    repeatReturns: loop ? round(loop.returns) : 0,
    repeatNovelty: loop ? round(loop.novelty) : 0,
    repeatOnsetToken: loop ? tokenIndexAt(o.tokenOffsets, loop.onset) : -1,
    collapseOnset: c.verdict === 'fail' ? c.onset : -1,
    collapseOnsetToken: c.verdict === 'fail' ? tokenIndexAt(o.tokenOffsets, c.onset) : -1,
    collapseKind: c.verdict === 'fail' ? c.kind : '',
    longestWhitespaceRun: d.whitespace.longestRun,
    whitespaceShare: chars === 0 ? 0 : round(d.whitespace.spaceChars / chars),
    punctuationShare: chars === 0 ? 0 : round(tx.punctChars / chars),
    duplicateLineFraction: round(tx.duplicateLineFraction),
    malformedShare: round(d.language.malformed),
    stutterShare: round(d.stutter.share),
    scriptSwitchLetters: d.language.switchLetters,
    top2gramCharFraction: round(tx.ngrams.top[0]!),
    dup10gramCharFraction: round(tx.ngrams.dup[5]!),
    openingScript: d.language.script,
    certainFail: c.verdict === 'fail' && c.certain ? 1 : 0,
  };
}

const REPEAT_UNIT_KINDS: ReadonlySet<string> = new Set(REPETITION_KINDS);

function isRepeatKind(kind: string): boolean {
  return REPEAT_UNIT_KINDS.has(kind);
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/** What the live check saw: a certain fail (abort), else the first fail or warning of the same detectors. */
export interface LiveCheck {
  certain: Finding | null;
  /** A loop or flood the cheap detectors see but cannot yet call certain; null when certain is set. */
  suspected: Finding | null;
}

/**
 * The live check: only the detectors whose findings can be certain, each on the last tokens
 * of the text (no gzip, no word counts), so it is cheap enough to run every ~32 tokens; the
 * same rules decide as in a full analysis.
 */
export function liveCheck(engine: Engine, o: BuildOptions): LiveCheck {
  const { chars, detectors } = engine.liveFigures();
  const found = applyRules(judgeAll(detectors, o.thresholds, judgeContext(chars, o)));
  const certain = found.find((f) => f.severity === 'fail' && f.certain) ?? null;
  const suspected = certain ? null : (found.find((f) => f.severity === 'fail') ?? found.find((f) => f.severity === 'warn') ?? null);
  return { certain, suspected };
}

/** The first certain fail in the text so far, or null. */
export function certainCollapse(engine: Engine, o: BuildOptions): Finding | null {
  return liveCheck(engine, o).certain;
}

/** The analysis of everything an engine was fed so far (a snapshot: the engine goes on). */
export function analysisOf(engine: Engine, o: BuildOptions): Analysis {
  // the score reads every n-gram fraction; without it, only the two reported are counted
  const { base, detectors } = engine.figures(o.model && !o.partial ? 'all' : 'reported');
  const raw = judgeAll(detectors, o.thresholds, judgeContext(base.chars, o));
  return buildAnalysis(base, detectors, raw, o);
}
