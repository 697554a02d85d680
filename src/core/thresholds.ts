/**
 * Every analyzer threshold, with its default, in one place. Probes override any of
 * them by name (`probes[].thresholds`). Owned by the analyzer; config validates
 * override names against the keys of DEFAULT_THRESHOLDS.
 *
 * The defaults were tuned on test/corpus (healthy texts of many kinds and their
 * degenerate variants) and checked on a held-out set; see test/core/corpus.test.ts.
 * Sizes are in UTF-16 chars (about bytes for Latin text).
 */
export interface Thresholds {
  /**
   * Back-to-back loops (word, phrase, line, sentence, paragraph, tag and punctuation
   * loops). A loop is a stretch where the text repeats itself at a fixed period.
   */
  /** Copies of the unit a loop needs before it counts at all. */
  loopMinCopies: number;
  /** Chars a verbatim loop must cover to fail. Healthy text repeats back to back only in short bursts (a refrain, "====" rules, nested closing tags), far below this. */
  loopFailChars: number;
  /** Chars a verbatim loop must cover to warn. */
  loopWarnChars: number;
  /** Share of tokens that must match the previous copy for a loop to count as verbatim. */
  loopMinSimilarity: number;
  /** Near-loops (a word swapped, a number counting up): lower similarity needs more evidence. */
  nearLoopMinSimilarity: number;
  nearLoopMinCopies: number;
  nearLoopFailChars: number;
  /** Share of the text inside loops above which the text fails whatever the loop sizes. */
  repeatCoverageFail: number;

  /** Longest run of one word ("the the the"); songs reach 8 ("na na na ..."). */
  wordRunWarn: number;
  wordRunFail: number;
  /** Stutter: share of a window's whitespace-delimited chunks repeated back to back ("I I think think", `"id": "id":`); prose has ~1%, songs with "na na na" up to ~8%. */
  stutterShare: number;
  /** Near-loop / low diversity: at most this many distinct content words among the last 128... */
  lowDiversityMax: number;
  /** ...for this many consecutive words fails (prose uses 60+ distinct words per 128). */
  lowDiversityRunFail: number;
  /** Consecutive flagged windows (768 chars each, sliding by 256 chars, so 2 windows span 1 KB) that make a stutter, salad, gibberish or script fail. */
  windowRunFail: number;

  /** Longest run of whitespace chars; deep indentation plus blank lines stays under 100. */
  whitespaceRunWarn: number;
  whitespaceRunFail: number;

  /** Whole-text gzip ratio: reported, and only an extreme value decides (loops are found by position instead). */
  compressionRatioWarn: number;
  compressionRatioFail: number;
  /** Windowed gzip: the most compressible 4 KB window (ratio), and that ratio relative to the text's median window. */
  windowCompressionFail: number;
  windowCompressionRelFail: number;

  /** Word salad, per window: share of function words below this, with few sentence ends and newlines. */
  saladFunctionWordMax: number;
  /** Words per sentence end above which a window has no sentence structure left. */
  saladWordsPerSentenceMin: number;
  /** Glued words: share of a window's letters in words of 25+ letters without digits. */
  gluedLetterShare: number;

  /** Gibberish, per window: vowel share of Latin letters outside these bounds (English ~0.38). */
  gibberishVowelMin: number;
  gibberishVowelMax: number;
  /** Char soup: share of a window's words that mix letters and digits or flip case twice ("x9Fq2", "kHjStm"). */
  garbledTokenShare: number;
  /** Odd chars (U+FFFD, controls, private use) share of a window. */
  oddCharShare: number;
  /** Script switch: share of a window's letters outside the text's opening script. */
  scriptSwitchShare: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  loopMinCopies: 3,
  loopFailChars: 300,
  loopWarnChars: 160,
  loopMinSimilarity: 0.9,
  nearLoopMinSimilarity: 0.8,
  nearLoopMinCopies: 4,
  nearLoopFailChars: 600,
  repeatCoverageFail: 0.3,

  wordRunWarn: 8,
  wordRunFail: 16,
  stutterShare: 0.15,
  lowDiversityMax: 32,
  lowDiversityRunFail: 48,
  windowRunFail: 2,

  whitespaceRunWarn: 80,
  whitespaceRunFail: 200,

  compressionRatioWarn: 0.05,
  compressionRatioFail: 0.02,
  windowCompressionFail: 0.08,
  windowCompressionRelFail: 0.25,

  saladFunctionWordMax: 0.08,
  saladWordsPerSentenceMin: 60,
  gluedLetterShare: 0.5,

  gibberishVowelMin: 0.22,
  gibberishVowelMax: 0.62,
  garbledTokenShare: 0.3,
  oddCharShare: 0.03,
  scriptSwitchShare: 0.6,
});
