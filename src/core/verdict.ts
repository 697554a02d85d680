/**
 * Turns the engine's raw figures into the public Analysis: metrics, a verdict and
 * reasons. Every decision reads a threshold from the Thresholds table.
 */
import type { Analysis, TextMetrics, Verdict } from './analysisTypes.js';
import { lastAtOrBelow } from './lastAtOrBelow.js';
import { SCRIPT_NAMES } from './charClass.js';
import {
  F_GIBBERISH, F_GLUED, F_SALAD, F_SCRIPT, F_STUTTER, LEVEL_FAIL, LEVEL_NONE, LEVEL_WARN,
  type RawFigures, type Region,
} from './engine.js';
import type { Thresholds } from './thresholds.js';

const EXCERPT = 120;

export type LoopKind =
  | 'word_loop' | 'phrase_loop' | 'line_loop' | 'sentence_loop' | 'paragraph_loop' | 'near_loop'
  | 'tag_spam' | 'punctuation_flood';

/** Markup tags and special tokens only: "</div>", "<br/>", "<|im_end|>", "</s>". */
const TAGS_ONLY = /^(?:\s*(?:<\/?[A-Za-z!?][^<>]{0,200}>|<\|[^<>|]{1,40}\|>))+\s*$/;
const LETTERS = /\p{L}/gu;
const DIGITS = /\p{N}/gu;
/** Sentence ends: Latin ones before a space or the end, CJK ones anywhere. */
const SENTENCE_END = /[.!?…](?=\s|$)|[。！？]/gu;

/** Name the kind of a loop from its unit text. */
export function loopKind(r: Region, unit: string, t: Thresholds): LoopKind {
  if (unit.trim().length <= 48 && TAGS_ONLY.test(unit)) return 'tag_spam';
  const letters = (unit.match(LETTERS) ?? []).length;
  const digits = (unit.match(DIGITS) ?? []).length;
  if (letters === 0 && unit.replace(/\s/g, '').length > 2 * digits) return 'punctuation_flood';
  if (Math.min(r.similarity, r.contentSimilarity) < t.loopMinSimilarity) return 'near_loop';
  if (r.periodTokens === 1) return 'word_loop';
  const trimmed = unit.trim();
  const sentences = (trimmed.match(SENTENCE_END) ?? []).length;
  if (trimmed.includes('\n') || sentences >= 3) return 'paragraph_loop';
  if (unit.includes('\n')) return 'line_loop';
  if (sentences >= 1) return 'sentence_loop';
  return 'phrase_loop';
}

/**
 * A loop's unit as found starts wherever the repeats began to match, often mid-sentence
 * (". The leader…"). Rotate it to start after a line break or sentence end inside the
 * unit, which is where a reader would say the loop begins.
 */
export function canonicalUnit(r: Region, slice: (a: number, b: number) => string): { onset: number; unit: string } {
  const len = r.unitEnd - r.unitStart;
  const ext = slice(r.unitStart, Math.min(r.unitStart + 2 * len + 16, r.end));
  const unit0 = ext.slice(0, len);
  let x = -1;
  const nl = unit0.indexOf('\n');
  if (nl >= 0 && nl + 1 < len) {
    x = nl + 1;
    while (x < len && /\s/.test(unit0[x]!)) x++;
  } else {
    const m = /[.!?…]\s+|[。！？]\s*/u.exec(unit0);
    if (m) x = m.index + m[0].length;
  }
  if (x > 0 && x < len && x + len <= ext.length) {
    // the copies may differ in whitespace: end the unit where its start shows up again
    const probe = ext.slice(x, x + Math.max(1, Math.min(24, len - 2)));
    const y = ext.indexOf(probe, x + Math.max(1, len - 8));
    const end = y > x && Math.abs(y - x - len) <= 8 ? y : x + len;
    return { onset: r.unitStart + x, unit: ext.slice(x, end) };
  }
  return { onset: r.unitStart, unit: unit0 };
}

function excerpt(s: string, max = EXCERPT): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : flat.slice(0, max - 1) + '…';
}

function fmt(x: number, digits = 2): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

export interface BuildOptions {
  thresholds: Thresholds;
  slice: (from: number, to: number) => string;
  /** Char offsets where each stream token starts (ascending), to report token indexes. */
  tokenOffsets?: ArrayLike<number> | undefined;
}

function tokenIndexAt(offsets: ArrayLike<number>, charOffset: number): number {
  return charOffset < 0 ? -1 : lastAtOrBelow(offsets, charOffset);
}

export function buildAnalysis(raw: RawFigures, o: BuildOptions): Analysis {
  const t = o.thresholds;
  const reasons: string[] = [];
  let verdict = 'ok' as Verdict;
  let certain = false;
  /** Where the first failing finding starts (the collapse onset), -1 when none. */
  let onset = -1;
  let failKind = '';
  const fail = (r: string, at = -1): void => {
    reasons.push(r);
    if (failKind === '' || failKind === 'low_compression') failKind = r.slice(0, r.indexOf(':'));
    verdict = 'fail';
    if (at >= 0 && (onset < 0 || at < onset)) onset = at;
  };
  const warn = (r: string): void => {
    reasons.push(r);
    if (verdict === 'ok') verdict = 'warn';
  };

  // The loop to report: the worst one that counts, else the longest repeat seen.
  const region = raw.worst ?? raw.longest;
  const canon = region ? canonicalUnit(region, o.slice) : { onset: -1, unit: '' };
  const unit = canon.unit;
  const kind = region ? loopKind(region, unit, t) : '';
  const chars = raw.chars;
  const words = raw.words;

  if (raw.nonSpace === 0) {
    fail(chars === 0 ? 'empty: no output' : `empty: ${chars} whitespace chars and nothing else`, 0);
    certain = chars > 0 && raw.maxWsRun >= t.whitespaceRunFail;
  }

  // Is the worst loop still going at the end of the text (so far)? A model that collapses
  // stays in its loop until the token limit; text that repeats a block and then moves on
  // is structured (test cases, overloads, tables), not collapsed, unless the loop ran away.
  const loopAtEnd = !!raw.worst && chars - raw.worst.end <= Math.max(64, (raw.worst.unitEnd - raw.worst.unitStart) * 2);
  const recoveredButRunaway = (r: NonNullable<typeof raw.worst>): boolean =>
    Math.min(r.similarity, r.contentSimilarity) >= t.recoveredLoopMinSimilarity && r.coveredChars >= t.recoveredLoopFailChars;

  if (raw.worst && raw.worstLevel > LEVEL_NONE) {
    const r = raw.worst;
    const detail = `"${excerpt(unit, 60)}" repeated ${fmt(r.copies, 1)} times back to back from char ${canon.onset} (${r.coveredChars} chars, ${Math.round((100 * r.coveredChars) / Math.max(1, chars))}% of the text, similarity ${fmt(Math.min(r.similarity, r.contentSimilarity))})`;
    if (raw.worstLevel === LEVEL_FAIL && (loopAtEnd || recoveredButRunaway(r))) {
      fail(`${kind}: ${detail}`, canon.onset);
      // A loop still running at the end of the text with many verbatim copies will not recover.
      certain ||= loopAtEnd && r.copies >= 8 && Math.min(r.similarity, r.contentSimilarity) >= 0.99 && r.coveredChars >= 2 * t.loopFailChars;
    } else if (raw.worstLevel === LEVEL_FAIL && Math.min(r.similarity, r.contentSimilarity) >= t.loopMinSimilarity) {
      // Collapse does not recover; a verbatim block repeated and left behind is still odd.
      warn(`${kind}: ${detail}, and the text moves on after it`);
    }
    // A near-loop left behind is structured repetition (test cases, overloads, table rows):
    // no finding. A smaller loop warns when it is verbatim or still going at the end.
    else if (raw.worstLevel === LEVEL_WARN && (loopAtEnd || Math.min(r.similarity, r.contentSimilarity) >= t.loopMinSimilarity)) {
      warn(`${kind}: ${detail}`);
    }
  }
  const coverage = chars > 0 ? Math.min(1, raw.coveredChars / chars) : 0;
  if (coverage >= t.repeatCoverageFail && raw.worstLevel !== LEVEL_FAIL) {
    const text = `loop_coverage: ${Math.round(coverage * 100)}% of the text lies in back-to-back repeats`;
    if (loopAtEnd) fail(text, canon.onset);
    else warn(`${text}, and the text moves on after them`);
  }

  if (raw.maxWordRun >= t.wordRunFail) {
    if (!(verdict === 'fail' && kind === 'word_loop')) fail(`word_loop: "${excerpt(raw.maxWordRunWord, 40)}" ${raw.maxWordRun} times in a row at char ${raw.maxWordRunStart}`, raw.maxWordRunStart);
  } else if (raw.maxWordRun >= t.wordRunWarn) {
    warn(`stutter: "${excerpt(raw.maxWordRunWord, 40)}" ${raw.maxWordRun} times in a row at char ${raw.maxWordRunStart}`);
  }

  if (raw.nonSpace > 0) {
    if (raw.maxWsRun >= t.whitespaceRunFail) {
      fail(`whitespace_flood: ${raw.maxWsRun} whitespace chars in a row at char ${raw.maxWsRunStart}`, raw.maxWsRunStart);
      certain ||= raw.maxWsRunStart + raw.maxWsRun >= chars && raw.maxWsRun >= 4 * t.whitespaceRunFail;
    } else if (raw.maxWsRun >= t.whitespaceRunWarn) {
      warn(`whitespace_flood: ${raw.maxWsRun} whitespace chars in a row at char ${raw.maxWsRunStart}`);
    }
  }

  if (raw.lowDiversityRun >= t.lowDiversityRunFail && !(verdict === 'fail' && reasons.some((r) => /^(word|phrase|line|sentence|paragraph|near)_loop|^tag_spam|^punctuation_flood|^loop_coverage/.test(r)))) {
    const text = `near_loop: the text keeps cycling through ${raw.lowDiversityDistinct} distinct words for ${raw.lowDiversityRun + 128} words from char ${raw.lowDiversityStart}`;
    // As with loops: still cycling at the end, or for very long, is a collapse; a stretch of
    // boilerplate the text moves on from is not.
    if (raw.lowDiversityCurRun >= t.lowDiversityRunFail || raw.lowDiversityRun >= 3 * t.lowDiversityRunFail) fail(text, raw.lowDiversityStart);
    // else: a stretch of boilerplate with a small vocabulary, left behind: no finding
    certain ||= raw.lowDiversityCurRun >= 3 * t.lowDiversityRunFail;
  }

  const windowKinds: Array<[number, string, string]> = [
    [F_SALAD, 'word_salad', 'no sentence structure and almost no function words'],
    [F_GLUED, 'word_salad', 'words glued together without spaces'],
    [F_GIBBERISH, 'gibberish', 'letters that form no words, odd chars or mixed scripts'],
    [F_SCRIPT, 'script_switch', `text leaves its opening script (${SCRIPT_NAMES[raw.headScript] ?? 'none'})`],
    [F_STUTTER, 'stutter', 'words doubled over and over'],
  ];
  for (const [flag, name, what] of windowKinds) {
    const run = raw.flagMaxRun[flag]!;
    const stillGoing = raw.flagCurRun[flag]! >= t.windowRunFail;
    if (run >= t.windowRunFail && !stillGoing && run < 3 * t.windowRunFail) {
      warn(`${name}: ${what}, ${run} windows in a row from char ${raw.flagMaxRunStart[flag]}, and the text moves on after it`);
    } else if (run >= t.windowRunFail) {
      fail(`${name}: ${what}, ${run} windows in a row from char ${raw.flagMaxRunStart[flag]}`, raw.flagMaxRunStart[flag]);
      // still going on at the end after ~2 KB: the stream will not come back to prose
      certain ||= raw.flagCurRun[flag]! >= 3 * t.windowRunFail;
    }
    else if (run > 0) warn(`${name}: ${what}, in one window at char ${raw.flagMaxRunStart[flag]}`);
  }

  const c = raw.compression;
  if (raw.nonSpace === 0) {
    // nothing but whitespace: already failed as empty, the other figures add nothing
  } else if (c.ratio < t.compressionRatioFail) fail(`low_compression: whole text gzips to ${fmt(c.ratio, 3)} of its size`);
  else if (c.ratio < t.compressionRatioWarn) warn(`low_compression: whole text gzips to ${fmt(c.ratio, 3)} of its size`);
  const rel = c.medianWindow > 0 ? c.minWindow / c.medianWindow : 1;
  if (c.windows >= 2 && c.minWindow < t.windowCompressionFail && rel < t.windowCompressionRelFail && verdict !== 'fail') {
    warn(`low_compression: the 4 KB window at char ${c.minWindowStart} gzips to ${fmt(c.minWindow, 3)}, the median window to ${fmt(c.medianWindow, 3)}`);
  }

  const rOnset = canon.onset;
  const metrics: TextMetrics = {
    chars,
    bytes: raw.bytes,
    words,
    compressionRatio: round(c.ratio),
    longestWordRun: raw.maxWordRun,
    longestWordRunWord: excerpt(raw.maxWordRunWord, 40),
    topLineRepeats: raw.topLineCount,
    topLine: excerpt(raw.topLine),
    uniqueWordRatio: words === 0 ? 1 : round(raw.distinctWords / words),
    repeatPeriod: region ? unit.length : 0,
    repeatCount: region ? Math.floor(region.copies) : 0,
    repeatOnset: rOnset,
    repeatCoverage: round(coverage),
    repeatExcerpt: excerpt(unit),
    repeatKind: kind,
    repeatPeriodTokens: region ? region.periodTokens : 0,
    repeatChars: region ? region.coveredChars : 0,
    repeatEnd: region ? region.end : -1,
    repeatSimilarity: region ? round(Math.min(region.similarity, region.contentSimilarity)) : 0,
    repeatOnsetToken: o.tokenOffsets && rOnset >= 0 ? tokenIndexAt(o.tokenOffsets, rOnset) : -1,
    /** Where the earliest failing finding starts, whatever its kind (-1 when the text does not fail). */
    collapseOnset: verdict === 'fail' ? onset : -1,
    collapseOnsetToken: verdict === 'fail' && o.tokenOffsets && onset >= 0 ? tokenIndexAt(o.tokenOffsets, onset) : -1,
    /** Kind of the first failing reason ('' when the text does not fail). */
    collapseKind: failKind,
    longestWhitespaceRun: raw.maxWsRun,
    whitespaceShare: chars === 0 ? 0 : round(raw.spaceChars / chars),
    punctuationShare: chars === 0 ? 0 : round(raw.punctChars / chars),
    duplicateLineFraction: raw.lineChars === 0 ? 0 : round(raw.dupLineChars / raw.lineChars),
    windowCompressionMin: round(c.minWindow),
    windowCompressionMedian: round(c.medianWindow),
    windowCompressionRelative: round(rel),
    saladWindows: raw.flagWindows[F_SALAD]! + raw.flagWindows[F_GLUED]!,
    gibberishWindows: raw.flagWindows[F_GIBBERISH]!,
    scriptSwitchWindows: raw.flagWindows[F_SCRIPT]!,
    stutterWindows: raw.flagWindows[F_STUTTER]!,
    lowDiversityWords: raw.lowDiversityRun,
    top2gramCharFraction: round(raw.ngrams.top[0]!),
    top3gramCharFraction: round(raw.ngrams.top[1]!),
    top4gramCharFraction: round(raw.ngrams.top[2]!),
    dup5gramCharFraction: round(raw.ngrams.dup[0]!),
    dup6gramCharFraction: round(raw.ngrams.dup[1]!),
    dup7gramCharFraction: round(raw.ngrams.dup[2]!),
    dup8gramCharFraction: round(raw.ngrams.dup[3]!),
    dup9gramCharFraction: round(raw.ngrams.dup[4]!),
    dup10gramCharFraction: round(raw.ngrams.dup[5]!),
    openingScript: SCRIPT_NAMES[raw.headScript] ?? 'none',
    certainFail: verdict === 'fail' && certain ? 1 : 0,
  };
  return { verdict, reasons, metrics };
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
