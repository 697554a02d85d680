/**
 * Turns every detector's figures into the public Analysis: findings (after the verdict
 * rules), the verdict, reason lines derived from findings, and the fixed metrics.
 */
import type { Analysis, TextMetrics, Verdict } from './analysisTypes.js';
import { SCRIPT_NAMES } from './charClass.js';
import type { BaseFigures, Engine } from './engine.js';
import type { JudgeContext } from './detectors/detector.js';
import { excerptOf } from './detectors/loops.js';
import type { Figures } from './detectors/registry.js';
import { F_GIBBERISH, F_GLUED, F_SALAD, F_SCRIPT, F_STUTTER } from './detectors/windows.js';
import { reasonOf, type Finding } from './finding.js';
import { lastAtOrBelow } from './lastAtOrBelow.js';
import type { Thresholds } from './thresholds.js';
import { applyRules, collapseFinding, collapseOnset } from './verdictRules.js';

const EXCERPT = 120;

export interface BuildOptions {
  thresholds: Thresholds;
  slice: (from: number, to: number) => string;
  /** Char offsets where each stream token starts (ascending), to report token indexes. */
  tokenOffsets?: ArrayLike<number> | undefined;
  /** How the generation ended, when known ('length': cut by the token limit). */
  finishReason?: string | null | undefined;
}

function tokenIndexAt(offsets: ArrayLike<number> | undefined, charOffset: number): number {
  return !offsets || charOffset < 0 ? -1 : lastAtOrBelow(offsets, charOffset);
}

export function judgeContext(chars: number, o: BuildOptions): JudgeContext {
  return { thresholds: o.thresholds, chars, finishReason: o.finishReason ?? null };
}

export function buildAnalysis(base: BaseFigures, figures: Figures, raw: readonly Finding[], o: BuildOptions): Analysis {
  const findings = applyRules(raw).map((f) => ({
    ...f,
    atToken: f.atToken >= 0 ? f.atToken : tokenIndexAt(o.tokenOffsets, f.atChar),
    excerpt: f.excerpt || (f.atChar >= 0 ? excerptOf(o.slice(f.atChar, f.atChar + 100), 80) : ''),
  }));
  const verdict: Verdict = findings.some((f) => f.severity === 'fail') ? 'fail' : findings.length > 0 ? 'warn' : 'ok';
  const collapse = collapseFinding(findings);
  const onset = collapseOnset(findings);
  const certain = findings.some((f) => f.certain && f.severity === 'fail');
  return {
    verdict,
    findings,
    reasons: findings.map(reasonOf),
    metrics: textMetrics(base, figures, findings, o, { verdict, onset, kind: collapse?.kind ?? '', certain }),
  };
}

function textMetrics(
  base: BaseFigures,
  d: Figures,
  findings: readonly Finding[],
  o: BuildOptions,
  c: { verdict: Verdict; onset: number; kind: string; certain: boolean },
): TextMetrics {
  const chars = base.chars;
  const loops = d.loops;
  const region = loops.region;
  const comp = d.compression;
  const win = d.windows;
  const ng = d.ngrams;
  // A loop that is reported counts in the coverage figure, whatever its size.
  const reported = region !== null && findings.some((f) => f.atChar === loops.onset && f.kind === loops.kind);
  const covered = Math.max(loops.coveredChars, reported ? region.coveredChars : 0);
  const coverage = chars > 0 ? Math.min(1, covered / chars) : 0;
  const rel = comp.medianWindow > 0 ? comp.minWindow / comp.medianWindow : 1;
  return {
    chars,
    bytes: base.bytes,
    words: base.words,
    compressionRatio: round(comp.ratio),
    longestWordRun: d.wordRuns.longest,
    longestWordRunWord: excerptOf(d.wordRuns.word, 40),
    topLineRepeats: d.lines.topLineCount,
    topLine: d.lines.topLine,
    uniqueWordRatio: base.words === 0 ? 1 : round(base.distinctWords / base.words),
    repeatPeriod: region ? loops.unit.length : 0,
    repeatCount: region ? Math.floor(region.copies) : 0,
    repeatCopies: region ? region.copies : 0,
    repeatOnset: loops.onset,
    repeatCoverage: round(coverage),
    repeatExcerpt: excerptOf(loops.unit, EXCERPT),
    repeatKind: loops.kind,
    repeatPeriodTokens: region ? region.periodTokens : 0,
    repeatChars: region ? region.coveredChars : 0,
    repeatEnd: region ? region.end : -1,
    repeatSimilarity: region ? round(Math.min(region.similarity, region.contentSimilarity)) : 0,
    repeatOnsetToken: tokenIndexAt(o.tokenOffsets, loops.onset),
    collapseOnset: c.verdict === 'fail' ? c.onset : -1,
    collapseOnsetToken: c.verdict === 'fail' ? tokenIndexAt(o.tokenOffsets, c.onset) : -1,
    collapseKind: c.verdict === 'fail' ? c.kind : '',
    longestWhitespaceRun: d.whitespace.longestRun,
    whitespaceShare: chars === 0 ? 0 : round(d.whitespace.spaceChars / chars),
    punctuationShare: chars === 0 ? 0 : round(base.punctChars / chars),
    duplicateLineFraction: d.lines.lineChars === 0 ? 0 : round(d.lines.dupLineChars / d.lines.lineChars),
    windowCompressionMin: round(comp.minWindow),
    windowCompressionMedian: round(comp.medianWindow),
    windowCompressionRelative: round(rel),
    saladWindows: win.flagged[F_SALAD]! + win.flagged[F_GLUED]!,
    gibberishWindows: win.flagged[F_GIBBERISH]!,
    scriptSwitchWindows: win.flagged[F_SCRIPT]!,
    stutterWindows: win.flagged[F_STUTTER]!,
    lowDiversityWords: d.lowDiversity.run,
    top2gramCharFraction: round(ng.top[0]!),
    top3gramCharFraction: round(ng.top[1]!),
    top4gramCharFraction: round(ng.top[2]!),
    dup5gramCharFraction: round(ng.dup[0]!),
    dup6gramCharFraction: round(ng.dup[1]!),
    dup7gramCharFraction: round(ng.dup[2]!),
    dup8gramCharFraction: round(ng.dup[3]!),
    dup9gramCharFraction: round(ng.dup[4]!),
    dup10gramCharFraction: round(ng.dup[5]!),
    openingScript: SCRIPT_NAMES[win.headScript] ?? 'none',
    certainFail: c.verdict === 'fail' && c.certain ? 1 : 0,
  };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

/**
 * The first certain fail in the text so far, or null: the live abort check. Only detectors
 * whose findings can be certain are computed (no gzip, n-grams or garble figures), so it is
 * cheap enough to run every ~32 tokens; the same rules decide as in a full analysis.
 */
export function certainCollapse(engine: Engine, o: BuildOptions): Finding | null {
  return liveCheck(engine, o).certain;
}

/** What the live check saw: a certain fail (abort), else the first fail or warning of the same detectors. */
export interface LiveCheck {
  certain: Finding | null;
  /** A loop or flood the cheap detectors see but cannot yet call certain; null when certain is set. */
  suspected: Finding | null;
}

/** certainCollapse, plus what it saw short of certain: the "suspected" state of a live view. */
export function liveCheck(engine: Engine, o: BuildOptions): LiveCheck {
  const { base, detectors } = engine.figures((d, view) => d.mayBeCertain === true && d.cannotBeCertain?.(view, o.thresholds) !== true);
  const found = applyRules(engine.judge(detectors, judgeContext(base.chars, o)));
  const certain = found.find((f) => f.severity === 'fail' && f.certain) ?? null;
  const suspected = certain ? null : (found.find((f) => f.severity === 'fail') ?? found.find((f) => f.severity === 'warn') ?? null);
  return { certain, suspected };
}

/** The analysis of everything an engine was fed so far (a snapshot: the engine goes on). */
export function analysisOf(engine: Engine, o: BuildOptions): Analysis {
  const { base, detectors } = engine.figures();
  const raw = engine.judge(detectors, judgeContext(base.chars, o));
  return buildAnalysis(base, detectors, raw, o);
}
