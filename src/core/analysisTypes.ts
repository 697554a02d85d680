import type { Finding } from './finding.js';

/** Verdict of one text analysis. `error` exists only at the sample level (see probe/). */
export type Verdict = 'ok' | 'warn' | 'fail';

/**
 * Figures computed from one text, a fixed set so the result can be serialised as JSON and
 * exported as Prometheus samples. Ratios are 0..1. Counts are integers. Offsets are UTF-16
 * code-unit offsets into the text (-1 when there is none).
 */
export interface TextMetrics {
  chars: number;
  bytes: number;
  words: number;
  /** gzip (level 6) bytes / UTF-8 bytes. LOWER means MORE repetitive. 1 for empty text. */
  compressionRatio: number;
  /** Longest run of one word repeated back to back ("the the the" = 3). */
  longestWordRun: number;
  longestWordRunWord: string;
  /** How many times the most repeated non-blank line occurs. */
  topLineRepeats: number;
  topLine: string;
  /** Distinct words / words (0..1). 1 for empty text. */
  uniqueWordRatio: number;
  /** Longest back-to-back repeated block: its unit length in chars (0 when none). */
  repeatPeriod: number;
  /** How many whole back-to-back copies of that unit (0 when none). */
  repeatCount: number;
  /** The copies as the loop's reason counts them, a last partial copy included (8.9): what reports show (0 when none). */
  repeatCopies: number;
  /** Char offset where that repeated block starts (-1 when none). */
  repeatOnset: number;
  /** Share of the text's chars inside back-to-back repeats that count, the reported one included (0..1). */
  repeatCoverage: number;
  /** A short excerpt of the repeated unit ('' when none). */
  repeatExcerpt: string;
  /** Kind of that repeat ('' when none). */
  repeatKind: string;
  repeatPeriodTokens: number;
  repeatChars: number;
  repeatEnd: number;
  repeatSimilarity: number;
  /** Stream token index of repeatOnset (-1 when token offsets are unknown). */
  repeatOnsetToken: number;
  /** Where the earliest failing finding starts, whatever its kind (-1 when the text does not fail). */
  collapseOnset: number;
  collapseOnsetToken: number;
  /** Kind of the collapse: the first failing finding ('' when the text does not fail). */
  collapseKind: string;
  longestWhitespaceRun: number;
  whitespaceShare: number;
  punctuationShare: number;
  duplicateLineFraction: number;
  windowCompressionMin: number;
  windowCompressionMedian: number;
  windowCompressionRelative: number;
  saladWindows: number;
  gibberishWindows: number;
  scriptSwitchWindows: number;
  stutterWindows: number;
  lowDiversityWords: number;
  top2gramCharFraction: number;
  top3gramCharFraction: number;
  top4gramCharFraction: number;
  dup5gramCharFraction: number;
  dup6gramCharFraction: number;
  dup7gramCharFraction: number;
  dup8gramCharFraction: number;
  dup9gramCharFraction: number;
  dup10gramCharFraction: number;
  openingScript: string;
  /** 1 when the text fails beyond doubt (a stream may be aborted), else 0. */
  certainFail: number;
}

export interface Analysis {
  verdict: Verdict;
  /** What the detectors found, after the verdict rules; empty when ok. */
  findings: Finding[];
  /** One line per finding, "<kind>: <detail>", for people. Derived from findings, never parsed. */
  reasons: string[];
  metrics: TextMetrics;
}
