/**
 * Every analyzer threshold, with its default, in one place. Probes override any of
 * them by name (`probes[].thresholds`). Owned by the analyzer; config validates
 * override names against the keys of DEFAULT_THRESHOLDS.
 *
 * The defaults were tuned on the corpus in test/corpus (33 healthy texts of many kinds,
 * 160 long mixes of them, and degenerate variants of every kind) and checked on two
 * held-out sets; test/core/corpus.test.ts measures them. Moving any one of them by a
 * third in either direction changes no verdict on the tuning set, except stutterShare
 * (0.22 misses stutters in JSON and code), nearLoopMinSimilarity (0.9 misses near-loops
 * that swap words) and windowRunFail (3 misses a 1 KB word salad at the very end).
 *
 * Loop sizes are in UTF-16 chars; window sizes (salad, gibberish, stutter, script) are
 * in UTF-8 bytes, so a window holds about as much Chinese text as English text.
 */
import { CYCLING_DEFAULTS, type CyclingThresholds } from './detectors/cycling.js';
import { ENUMERATION_DEFAULTS, type EnumerationThresholds } from './detectors/enumeration.js';
import { GARBLE_DEFAULTS, type GarbleThresholds } from './detectors/garble.js';
import { TAIL_REPEAT_DEFAULTS, type TailRepeatThresholds } from './detectors/tailRepeat.js';

export interface Thresholds extends TailRepeatThresholds, CyclingThresholds, EnumerationThresholds, GarbleThresholds {
  // --- Back-to-back loops: word, phrase, line, sentence, paragraph, tag and punctuation loops.
  /** Copies of the unit a loop needs before it counts at all (a chorus sung twice is 2). */
  loopMinCopies: number;
  /** Chars a verbatim loop must cover to fail. Healthy text repeats back to back only in short bursts (a refrain, "====" rules, nested closing tags): under 120 chars in the corpus. */
  loopFailChars: number;
  /** Chars a verbatim loop must cover to warn. */
  loopWarnChars: number;
  /** Share of tokens equal to the token one period earlier for a loop to count as verbatim. */
  loopMinSimilarity: number;
  /** Near-loops (a word swapped, a number counting up). Similar statements in code, log lines and table rows reach 0.6-0.75; generated near-loops 0.8-0.97. */
  nearLoopMinSimilarity: number;
  nearLoopMinCopies: number;
  nearLoopFailChars: number;
  /** Share of the text inside loops (that each count) above which the text fails, when the worst loop is still going at the end. */
  repeatCoverageFail: number;
  /**
   * A loop the text moves on from (it does not reach the end) only warns: a collapsed model
   * stays in its loop until the token limit, while code, tests and tables repeat a block and
   * go on. Unless the loop ran away: this similar and covering this many chars, it fails
   * wherever it is. Measured with `npm run bench -- realworld`.
   */
  recoveredLoopMinSimilarity: number;
  recoveredLoopFailChars: number;
  /** A verbatim loop the text moves on from warns only with this many copies (and half the runaway size); fewer say nothing. */
  recoveredLoopWarnCopies: number;
  /**
   * When the model ended the output itself (finish_reason stop), a loop at its end fails only
   * when its copies are this similar (verbatim) or this many; else it warns. Real collapses
   * repeat verbatim (similarity 0.97-1 in ../shared/corpus-real); code and docs that end in
   * blocks varying by a name reach 0.80-0.98 with 3-13 copies.
   */
  stoppedLoopMinSimilarity: number;
  stoppedLoopMinCopies: number;
  /**
   * ...unless its copies name something new: at least this many words met for the first time
   * in the text per copy (numbers aside). A stuck model repeats itself (0-0.11 per copy in the
   * loops of ../shared/corpus-real); a list in one template (an import per module, a test per
   * error code) names a new thing in most copies (0.8-1.0 in the real files that failed). The
   * list-like collapses of the corpus (0.68-0.75, a package name growing per line) are the
   * enumeration detector's to judge, and the loop finding still warns.
   */
  stoppedLoopMinNovelty: number;
  /**
   * Whatever the finish reason (but length), a loop at the end whose copies vary and bring this
   * many words new to the text per copy warns: test cases, one section per type. The loops of
   * real collapses bring 0-0.11, list-like collapses 0.68-0.75; varied code blocks 1-4.
   */
  loopBlocksMinNovelty: number;
  /** Near-loop by vocabulary: at most this many distinct words among the last 128 (prose has 60-100; code and data, which cycle through fewer, are judged at half this)... */
  lowDiversityMax: number;
  /** ...for this many words in a row fails. */
  lowDiversityRunFail: number;

  // --- Runs of one word, stutter, floods.
  /** Longest run of one word ("the the the"); songs reach 8 ("na na na ..."). */
  wordRunWarn: number;
  wordRunFail: number;
  /** Stutter: share of a window's whitespace-delimited chunks repeated back to back ("I I think think", `"id": "id":`); prose has ~1%, songs up to ~8%. */
  stutterShare: number;
  /** Longest run of whitespace chars; deep indentation plus blank lines stays under 40. */
  whitespaceRunWarn: number;
  whitespaceRunFail: number;

  // --- Windows (768 bytes, sliding by 256): word salad, gibberish, script switch, stutter.
  /** Flagged windows in a row that fail (2 = about 1 KB); a single flagged window warns. */
  windowRunFail: number;
  /** Word salad: function-word share below this (prose 0.3-0.55)... */
  saladFunctionWordMax: number;
  /** ...and more words than this per sentence end or line break (prose ~20). */
  saladWordsPerSentenceMin: number;
  /** Glued words: share of a window's letters in words of 40+ letters without digits. */
  gluedLetterShare: number;
  /** Gibberish: vowel share of Latin letters outside these bounds (English ~0.38, German ~0.35). */
  gibberishVowelMin: number;
  gibberishVowelMax: number;
  /** Char soup: share of words that mix letters and digits or flip case twice ("x9Fq2", "kHjStm"). */
  garbledTokenShare: number;
  /** Odd chars (U+FFFD, controls, private use) share of a window. */
  oddCharShare: number;
  /** Script switch: share of a window's letters outside the script the text opened in. */
  scriptSwitchShare: number;

  // --- Compression: reported; only extreme values decide (loops are found by position instead).
  /** Whole-text gzip ratio (compressed / original). Healthy HTML and code reach 0.16, so only a near-total collapse is below these. */
  compressionRatioWarn: number;
  compressionRatioFail: number;
  /** Windowed gzip: the most compressible 4 KB window below this ratio, and below this share of the median window, warns. */
  windowCompressionFail: number;
  windowCompressionRelFail: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  ...TAIL_REPEAT_DEFAULTS,
  ...CYCLING_DEFAULTS,
  ...ENUMERATION_DEFAULTS,
  ...GARBLE_DEFAULTS,
  loopMinCopies: 3,
  loopFailChars: 300,
  loopWarnChars: 160,
  loopMinSimilarity: 0.9,
  nearLoopMinSimilarity: 0.8,
  nearLoopMinCopies: 4,
  nearLoopFailChars: 600,
  repeatCoverageFail: 0.3,
  recoveredLoopMinSimilarity: 0.98,
  recoveredLoopFailChars: 2000,
  recoveredLoopWarnCopies: 8,
  stoppedLoopMinSimilarity: 0.99,
  stoppedLoopMinCopies: 16,
  stoppedLoopMinNovelty: 0.5,
  loopBlocksMinNovelty: 1.5,
  lowDiversityMax: 32,
  lowDiversityRunFail: 48,

  wordRunWarn: 8,
  wordRunFail: 16,
  stutterShare: 0.15,
  whitespaceRunWarn: 80,
  whitespaceRunFail: 200,

  windowRunFail: 2,
  saladFunctionWordMax: 0.08,
  saladWordsPerSentenceMin: 60,
  gluedLetterShare: 0.5,
  gibberishVowelMin: 0.22,
  gibberishVowelMax: 0.62,
  garbledTokenShare: 0.3,
  oddCharShare: 0.03,
  scriptSwitchShare: 0.6,

  compressionRatioWarn: 0.05,
  compressionRatioFail: 0.02,
  windowCompressionFail: 0.08,
  windowCompressionRelFail: 0.25,
});
