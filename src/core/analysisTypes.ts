/** Verdict of one text analysis. `error` exists only at the sample level (see probe/). */
export type Verdict = 'ok' | 'warn' | 'fail';

/**
 * Figures computed from one text. Every field is a plain number or string so the
 * result can be serialised as JSON and exported as Prometheus samples.
 * Ratios are 0..1. Counts are integers. Offsets are UTF-16 code-unit offsets into the text.
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
  /** How many back-to-back copies of that unit (0 when none). */
  repeatCount: number;
  /** Char offset where that repeated block starts (-1 when none). */
  repeatOnset: number;
  /** Share of the text's chars that lie inside back-to-back repeats (0..1). */
  repeatCoverage: number;
  /** A short excerpt of the repeated unit ('' when none). */
  repeatExcerpt: string;
  /** Further figures an analyzer version adds; numbers only. */
  [extra: string]: number | string;
}

export interface Analysis {
  verdict: Verdict;
  /** One entry per finding, "<kind>: <human readable detail>", e.g. "sentence_loop: ...". Empty when ok. */
  reasons: string[];
  metrics: TextMetrics;
}
