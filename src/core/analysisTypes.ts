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
  /** The repeat that runs to the end of the text (or the largest the text moved on from): its unit's length in chars (0 when none). */
  repeatPeriod: number;
  /** How many whole back-to-back copies of that unit (0 when none). */
  repeatCount: number;
  /** The copies as the loop's reason counts them, a last partial copy included (8.9): what reports show (0 when none). */
  repeatCopies: number;
  /** Char offset where that repeated block starts (-1 when none). */
  repeatOnset: number;
  /** Share of the text's chars from that repeat's start to its end (0..1). */
  repeatCoverage: number;
  /** A short excerpt of the repeated unit ('' when none). */
  repeatExcerpt: string;
  /** Kind of that repeat: the unit's finding kind ('' when none). */
  repeatKind: string;
  repeatPeriodTokens: number;
  repeatChars: number;
  repeatEnd: number;
  /** Share of the repeat's tokens equal to the token one unit earlier (0..1). */
  repeatSimilarity: number;
  /** How often the end returns to the same material (tokens / distinct 3-grams + 1; 0 when none). */
  repeatReturns: number;
  /** Share of the repeat's words used at most twice in the text: what its copies bring that is new (0..1). */
  repeatNovelty: number;
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
  /** Highest share of malformed words in a stretch of prose (0..1): HIGHER reads less like any language. */
  malformedShare: number;
  /** Highest share of words equal to the word before them in a stretch (0..1). */
  stutterShare: number;
  /** Letters of the longest run of prose in another script than the text's own. */
  scriptSwitchLetters: number;
  top2gramCharFraction: number;
  dup10gramCharFraction: number;
  /** The script most of the text's prose is in ('none' without letters). */
  openingScript: string;
  /** 1 when the text fails beyond doubt (a stream may be aborted), else 0. */
  certainFail: number;
}

/** Who decides the verdict: the detectors' rules (the default), or the learned model with the hard rules. */
export type VerdictMode = 'rules' | 'learned';

/** The learned model's reading of a finished text: in 'rules' mode information only. */
export interface AnalysisScore {
  /** The mode the verdict was decided in. */
  mode: VerdictMode;
  /** Probability of degeneration (0..1). */
  probability: number;
  /** The model fails a text at or above this probability (in 'learned' mode). */
  threshold: number;
  /** The model warns at or above this probability (in 'learned' mode). */
  warnFrom: number;
  /** The five figures that moved the probability most, with their share of the log-odds (+ towards degenerate). */
  contributions: Array<[string, number]>;
}

export interface Analysis {
  verdict: Verdict;
  /** What the detectors found, after the verdict rules; empty when ok. */
  findings: Finding[];
  /** One line per finding, "<kind>: <detail>", for people. Derived from findings, never parsed. */
  reasons: string[];
  metrics: TextMetrics;
  /** The learned model's score of the finished text; absent from a snapshot taken while the stream runs. */
  score?: AnalysisScore;
  /**
   * Why the finished text has no score when one was asked for: the model could not read its
   * figures (a retrained model naming a figure this analyzer lacks, or a fault in the reading).
   * The rules then decided the verdict, under the learned verdict too: the text is still judged.
   */
  scoreError?: string;
}
