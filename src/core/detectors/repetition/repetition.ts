/**
 * Repetition: how much of the end of the output repeats earlier output, in copies of what
 * unit, with how much new. One detector for what used to be loops, tail repeats, cycling and
 * runaway lists; they are one question asked of the regions of repeats.ts:
 *
 * - copies of the unit that run back to back to the end, nearly verbatim (a fifth of each
 *   copy may change: a word swapped, a number counting; line wrapping is not a token). A
 *   model that is stuck stays in its loop; healthy text repeats a sentence or a block a few
 *   times and moves on, or puts something new in each copy;
 * - the material the end keeps returning to (copies = tokens / distinct K-grams of the
 *   region), for cycles whose order shifts and templates that vary;
 * - novelty: the share of the region's words that the text uses at most twice. A loop brings
 *   nothing new (0-0.02); a list in one template names a new thing per item (0.1-0.5).
 *
 * The unit is named by text/units.ts; the same unit model serves the recovered loop (a long
 * verbatim loop the text moves on from, which fails only when it runs far past healthy text).
 * An end of prose that goes back over itself without copies back to back (paragraphs
 * reordered, a sentence changed) is read apart, by its 8-word sequences (restated.ts).
 */
import { F_LINE, F_NUM, isWordToken, K_PUNCT, KIND_MASK } from '../../text/tokens.js';
import { isSentenceEndChar, type UnitKind, unitKind } from '../../text/units.js';
import { closesOpened } from '../../text/brackets.js';
import { DelimitedTables } from '../../text/delimitedTables.js';
import type { Detector, Scan, Values } from '../detector.js';
import { type Finding, finding, fmt } from '../finding.js';
import { K, MAX_PERIOD, measureStretch, type Region, stretchPeriod } from './measureRegion.js';
import { findRegions } from './repeats.js';
import { templateIds } from './templateIds.js';
import { NO_COPIES, type NormalisedCopies } from './normalisedCopies.js';
import { NO_CHAIN, type ParagraphChain } from './paragraphChain.js';
import { NOT_REPLAYED, type Replayed, SHINGLE } from './replayed.js';
import { RESTATE_WORDS, type Restated, restated } from './restated.js';
import { nearRun, newPerCopy, PeriodCounts, type Run, verbatimRun } from './verbatimRun.js';
import { atEnd } from './atEnd.js';
import { type GrowingItems, growingItems, NO_GROWING } from './growingItems.js';
import { hasFunctionWord, isWordRegion, wordShare } from './wordRegion.js';

export const REPETITION_KINDS = [
  'word_loop',
  'phrase_loop',
  'sentence_loop',
  'line_loop',
  'paragraph_loop',
  'tag_spam',
  'punctuation_flood',
  'cycling',
  'list_runaway',
] as const;
export type RepetitionKind = (typeof REPETITION_KINDS)[number];

const THRESHOLDS = {
  tailLoopCopies: {
    value: 4,
    why: 'nearly verbatim copies of a word, phrase, sentence, line or paragraph that run to the end fail from this many. Healthy text ends in at most 3.1 (npm run bench -- thresholds: 2.2 for words, phrases and sentences, 3.1 for lines and paragraphs, over the healthy corpora and 1,600 real files, whole and cut at random points); a chorus sung twice is 2',
  },
  loopNewPerCopy: {
    value: 0.5,
    why: 'tokens per copy, after the first, that a loop may bring that it had not had: a stuck model brings nothing (0-0.1: its variants come back), while declarations, tests and data in one shape name something new in each (1-4 per copy in the realworld files)',
  },
  nearLoopNewShare: {
    value: 0.1,
    why: 'new tokens per copy over the tokens of a copy under which a loop of words (two in five of its tokens words, code punctuation under 1%) is stuck though each copy brings something: a model that swaps an adjective or inserts a word in every copy, one new word in ten at most. It fails with the copies any loop needs (near copies one more). No healthy reading has such a loop (0 of the model outputs and real files, whole and cut at 4 points; npm run bench -- thresholds); a list in one template brings a new thing in every item (0.2-0.5), and code declarations, which bring less (0.01), are no loop of words',
  },
  longLoopCopies: {
    value: 3,
    why: 'the same for a unit of longLoopTokens or more (a long sentence, a paragraph): healthy text never repeats such a unit three times at its end (2.2 at most, npm run bench -- thresholds)',
  },
  longLoopTokens: {
    value: 24,
    why: 'tokens from which a unit is long (about a sentence of 15 words with its punctuation)',
  },
  tailLoopCopiesAtLimit: {
    value: 3,
    why: 'the same when the stream was cut by the token limit (finish_reason length): running into the limit inside a loop is itself evidence',
  },
  certainCopies: {
    value: 8,
    why: 'copies at the end with no token changed from which a loop is certain (the stream may be closed early): twice the fail count, 2.5x the healthy maximum. Copies counted with a token changed here and there (a dot leader broken by the next line of a table of contents) wait for eight clean ones',
  },
  certainCellCopies: {
    value: 32,
    why: "the same for a cell of a table said again across its row (`:white_check_mark: | ` in a row of a Markdown table): a wide table says a cell again by design, and its row ends. Healthy files say one cell up to 12 times in a row (a readme's feature table; 10 clean copies where npm run bench -- thresholds cuts it), the model outputs' rows never, and no labelled collapse is such a loop; a model stuck in a row writes the cell to its limit, and 32 cells of 5 tokens are 160 tokens",
  },
  certainValueCopies: {
    value: 256,
    why: 'the same for a unit of one number and its marks (`0, `, `-1, `, `00 `): a value said again is data, which repeats by design. Healthy source code holds up to 144 such copies verbatim at a point a stream could reach (a table of -1 in LLVM, font metrics of 0.6 in Perl; 22 of 10,258 files of source code and the realworld bench past 8), model outputs 3; a model stuck on a number says it to its limit',
  },
  certainLoopTokens: {
    value: 128,
    why: 'tokens the clean copies of a loop of words (a value and the slots of a format too) must run to, besides the count each needs, before it is certain: data and code say a short unit again a dozen or two times by design (`OTH, ` in a table of character classes, `int  :32; ` in a struct, a code point of `\\ufffe` per line, `PASS` on each line of a test run), which eight copies of one to four tokens reach long before they end. Streamed, 15 of the 7,982 files of source code of npm run bench -- code were closed on such loops, their clean copies at 8 to 102 tokens (a decoding table of Python, 25.5 copies of 4 tokens), and model outputs never reach 8 copies; a block of HTML said 8 times (the album example of Bootstrap, 1,938 tokens) is past any such bound. A model stuck in a loop says it to its limit: waiting for 128 tokens of it costs at most that, and word, phrase and sentence loops stay certain within 300 tokens of their onset (test/core/certainFail.test.ts)',
  },
  floodChars: {
    value: 24,
    why: 'chars of a punctuation flood at the end ("!!!!", "？？？", "⁇ ⁇") that fail: healthy texts end in at most 6 ("?!?!", "...", "))))" closing a form; npm run bench -- thresholds). Closing brackets that close what the text opened (brackets.ts) are the end of code, not a flood: test files end in 24-49 chars of "})" (3 of the 1,616 realworld files failed so before)',
  },
  ruleChars: {
    value: 160,
    why: 'chars of rule or border chars (- = _ * # ~ . | + : box drawing) or of tags at the end that fail: rules, table borders and nested closing tags of healthy text stay within a line (at most 80 "-", 15 closing tags)',
  },
  returnsCopies: {
    value: 10,
    why: 'returns to the same material at the end (tokens / distinct 3-grams + 1) that fail when it brings nothing new: healthy model outputs return at most 8.4 times, 3.9 at the 99.9th percentile (a healthy mix cut in a table; npm run bench -- thresholds). Human-written tests and HTML cycle through a few names up to 36 times (realworld files, 22 of 6,708 past this)',
  },
  returnsNovelty: {
    value: 0.07,
    why: 'novelty that doubles the returns needed: returnsCopies x (1 + novelty / returnsNovelty). A list in one template names a new thing per item and may run long: healthy model outputs reach 27 returns at novelty 0.3-0.5 (an HTML table), 16 at novelty 1; runaway lists run to 37-440',
  },
  wholeLoopCoverage: {
    value: 0.8,
    why: 'a loop that is nearly the whole output (this share of its chars) fails from wholeLoopCopies: a short answer that is one sentence said twice and the start of a third. No healthy text of the corpora is 80% one unit repeated twice or more',
  },
  wholeLoopCopies: {
    value: 2.3,
    why: 'copies of such a loop that fail: two whole ones and a third begun',
  },
  wholeCycleReturns: {
    value: 3,
    why: 'returns to the same words (tokens / distinct 3-grams + 1) that fail when the cycle is most of the output (wholeCycleCoverage) and brings nothing new: a short answer that goes round a few lines or phrases in another order each time ("服务状态：已通过", "Hakate Toolbox"). No healthy reading has such a cycle at all, whatever its returns (0 of 2,770 readings of model outputs and 8,055 of real files, whole and cut at 4 points; npm run bench -- thresholds), so the count is the verbatim rule\'s: a loop that is the whole output fails from 2.3 copies (wholeLoopCopies), a cycle whose order shifts from its third time round. Alone it catches 46 of the 146 degenerate real texts',
  },
  wholeCycleCoverage: {
    value: 0.6,
    why: "share of the output, from where the cycle's material first came to the end, from which a cycle of words is most of the output. Read only for a cycle of words (two in five of its tokens are words with letters, code punctuation under 1%) that brings nothing new (novelty under returnsNovelty): code, tables of numbers and data cycle by design",
  },
  restatedShare: {
    value: 0.8,
    why: 'share of the last 512 words of prose that repeat an 8-word sequence the text had said twice already, that fails as cycling: an end that goes back over itself, paragraphs reordered and a sentence changed. Healthy model outputs reach 0.13 (the three real corpora, test/corpus; npm run bench -- thresholds; 0.3 counting sequences said once before, an answer that quotes its question), the real files 0.07; but a song reaches what its chorus makes it: lyrics with a chorus of 48-60 words sung 6-8 times 0.38-0.48, drawn songs whose chorus of two long lines follows each of 3-5 short verses and comes again at the end 0.56 (1,120 draws of the song_refrain family; 4 at 0.5 or more, which failed at 0.5), a written song whose chorus of 60 words follows each of seven verses of 35 and comes again at the end 0.71. The threshold sits beyond that. Every labelled collapse with a share of 0.5 or more fails by another rule (27 real, 97 synthetic, 79 family draws), so no catch of today depends on it; 25 of those 27 real ones reach 0.8. Read only where the end is prose (a quarter function words, code punctuation under 1% of its tokens)',
  },
  replayShare: {
    value: 0.5,
    why: 'share of the last third (at most 8,192) of the normalised chars (whitespace dropped, digits masked, case folded) of an output of replayMinChars or more that lie in a 32-char shingle the output had said before, that fails as cycling: a long story or answer whose last part replays its scenes or paragraphs with a word changed per sentence (0.52-0.80 in the 4 such real texts the other rules miss). Read only where the last part is words and no table, and over its prose lines only (rows of data and lines of code say their template again by design). Healthy texts of 7,000 chars or more reach 0.40 (model outputs cut every 100 chars from 7,000 to 8,500) and those of 8,000 or more 0.41 (model outputs, whole, cut at 4 random points and every 500 chars from 8,000) and 0.485 (a real file: the declarations of the OpenTelemetry SDK, their doc comments said again per kind of metric, cut anywhere past 8,000 chars; npm run bench -- thresholds), so the threshold sits at 0.5, under the lowest real replay; shorter ones reach 0.78 (an answer of 4.7 KB restating its sections, a patent application whose conclusion repeats its summary), hence the minimum length',
  },
  chainLinks: {
    value: 2,
    why: 'paragraphs at the end each holding 80% of the one before (its normalised 12-char shingles) while longer and not the same, from which they fail as cycling when they are words: one person or answer restated paragraph after paragraph while a list in it grows. No healthy reading ends in even one such link (npm run bench -- thresholds: model outputs and real files, whole and cut at 4 points); the restated profiles read 2-4',
  },
  slotLoopCopies: {
    value: 24,
    why: "copies back to back at the end of a unit of format placeholders alone (`%s|`, `%-10s `, `{} `, with the marks between them) that fail as a loop: a format string has a placeholder per column, and a model that loops on placeholders writes dozens. Healthy texts hold up to 11 in a row (dpkg's option help, `%s, --%s, --%s, ...`, in 12 translations; 20 with 6, 1 each with 7, 8 and 10: model outputs, real files, source code and 143,709 translations, whole), no labelled collapse more than 2, so the threshold is twice the healthy maximum and more",
  },
  countLoopCoverage: {
    value: 0.5,
    why: 'share of the output a list of numbers at the end covers (copies that are one number and its mark, no other word: a count, "1, 2, 3, 4,", "2033 - 2034 -", or one number said again, "0, 0, 0,"), from which it fails as a loop when the text breaks off in it (it ends on the list\'s mark): a model that counts on to its token limit instead of answering. A list that closes ("Counting to 10: 1, 2, ..., 10.", "The divisors of 12 are 1, 2, 3, 4, 6, and 12.", "(0, 0, 0, 0, 0, 0, 0, 0)", "[0, 1, ..., 31];") or goes on into words never fails; those failed as word loops before. A number between bars is a cell of a table, and a number said again with spaces alone between (412 412 412) no list: both are read as before. Of the lists broken off that would fail but for this, healthy ones cover at most 0.085 of a model output and 0.127 of a real file (cut mid-list at 100 to 1,000 chars or at random points), 0.030 of source code, none in the translations (npm run bench -- thresholds, on its own cuts: 0.032); corpus-real3 d-018, years counted to the limit, 0.64',
  },
  growingItems: {
    value: 5,
    why: 'items at the end of a list (pieces between commas, semicolons or line breaks, quotes and brackets trimmed) that each are the one before with 2+ chars added, covering half the output or more, that fail as list_runaway: a JSON keyword list whose every item is the one before with a word more, written to the token limit. No healthy reading ends in more than 3 such items (the two of 3 cover a hundredth of their output, those of 2 up to all of it) (186,164 readings: model outputs and real files whole and cut, the bench of npm run bench -- thresholds, where those covering half their output read 2 at most; source code of npm run bench -- code whole and cut; the 143,709 translations of npm run bench -- translations); the drawn short_growing_keys read 5-13, covering 0.86 or more',
  },
  replayMinChars: {
    value: 7000,
    why: 'chars from which an output is long enough to read its replay share: under this, healthy answers restate their summary or sections in most of their last third (up to 0.78 at 4.7 KB, 0.55 at 6,000 chars). Read on every healthy text cut every 100 chars from 6,500 to 8,500, model outputs reach 0.41 (0.40 from 7,000) and the real files 0.42, as past 8,000: the same margin under replayShare as there, 500 chars past the last healthy reading over 0.5',
  },
  largeCopies: {
    value: 1.5,
    why: 'copies back to back at the end, counted on the normalised chars (whitespace dropped, digits masked, case folded), of a unit of largeUnitChars or more that covers largeCopiesCoverage of the output and is words, not a table: a block said again and cut (1.6 copies), two sentences said 2.2 times and hard-wrapped at other places, items whose counters rise. No healthy text reaches both the unit and the coverage (npm run bench -- thresholds: such copies cover at most 0.29 of a real file, none in the model outputs whole and cut at 4 points; 0.35 of a model output cut at another point). Alone it catches 8 of the 236 degenerate real texts, all caught by other rules too',
  },
  normalisedLoopCopies: {
    value: 5,
    why: 'copies back to back at the end, counted on the normalised chars (whitespace dropped, digits masked, case folded), of a unit of words (not code, markup or a table; half its chars letters) that fail whatever their size: items whose counters rise while their words come round again ("41.大隅 42.薩摩 43.大隅"), which the token reading takes for new items. No healthy reading reaches 3 (npm run bench -- thresholds: model outputs 2.1, the real files 2.0, whole and cut at 4 points; 2.5 in a real file cut at another point), so the threshold sits at twice the healthy maximum',
  },
  exactCopies: {
    value: 2.3,
    why: 'copies back to back at the end, counted on the normalised chars with their numbers as written (whitespace dropped, case folded), of a unit of words of exactUnitChars or more (not a table, half its chars letters), that fail whatever share of the output they cover: two sentences said 2.3 times or more after a healthy opening, hard-wrapped at other places in each copy, which the token reading counts as fewer copies than it needs. No healthy reading reaches 1.7 (npm run bench -- thresholds: 1.63 at most over the model outputs and the real files, whole and cut at 16 points; the same copies with digits masked reach 2.0 in a real file, numbered steps whose counters rise), so the threshold sits at the whole-output count (wholeLoopCopies), past a chorus sung twice',
  },
  endCopies: {
    value: 3,
    why: 'copies back to back at the end, counted as exactCopies is (numbers as written), of a unit of words of endUnitChars or more (half letters, no table) that fail when they cover endCopiesCoverage of the output: a short answer whose last sentence is said three times ("我可以帮助你。" x3 after a line of introduction), where the token reading wants 4 copies. No healthy reading with 3 such copies covers more than 0.09 of its output (npm run bench -- thresholds: model outputs and real files, whole and cut at 16 points: base64 strings and test fixtures, units of 1-10 chars)',
  },
  endCopiesCoverage: {
    value: 0.3,
    why: 'share of the output (from the first copy to the end) that endCopies copies cover when they fail: over three times the most a healthy reading was seen with (0.09)',
  },
  endUnitChars: {
    value: 6,
    why: 'normalised chars from which a unit counts for endCopies: a short sentence of Chinese or two words, past a laugh ("ha ha ha") or an interjection said three times',
  },
  exactUnitChars: {
    value: 100,
    why: 'normalised chars (no whitespace) from which a unit counts for exactCopies: about a sentence and a half of prose, past the line of a poem or a song said twice',
  },
  blockUnitChars: {
    value: 500,
    why: 'normalised chars (no whitespace) from which a unit of words said again back to back at the end fails from largeCopies copies (numbers as written) whatever share of the output it covers: a paragraph or a block of 100 words or more said again and cut, or a block of rows of a table said again word for word (rows share a template by design, a block of them as written, numbers and all, does not). No healthy reading has a unit of words over 262 chars said 1.3 times or more (npm run bench -- thresholds: model outputs and real files, whole and cut at 16 points), tables included: no healthy reading of a table has a unit of 300+ chars said even 1.2 times as written; so the threshold sits at about twice that',
  },
  rewrappedCopies: {
    value: 1.7,
    why: 'copies back to back at the end, counted as exactCopies is (numbers as written, whitespace dropped, case folded), of a unit of words of rewrappedUnitChars or more (half letters, no table) whose line breaks fall at other places in one copy than in the copy before it, that fail whatever share of the output they cover: two sentences said 1.8 to 3 times and hard-wrapped as one run, or each copy at its own width, which the token reading counts as fewer copies than it needs. No healthy reading has such copies at all: of the 57 readings of words with 1.3 copies or more of a unit of 40+ chars (npm run bench -- thresholds: model outputs and real files, whole and cut at 16 points), none is wrapped so, and the 20 that are (code and HTML) are no words. A chorus, a stanza or a block written out twice keeps its line breaks and is judged by exactCopies. The threshold sits at 1.3 times the 1.3 copies from which readings were measured, past a block said again and cut short',
  },
  rewrappedUnitChars: {
    value: 60,
    why: 'normalised chars (no whitespace) from which a unit counts for rewrappedCopies: a sentence of ten words, longer than a line of a poem; readings were measured from 40',
  },
  largeUnitChars: {
    value: 160,
    why: 'normalised chars (no whitespace, a run of digits one) from which a unit is large: about 200 chars of prose, two sentences',
  },
  lineUnitChars: {
    value: 100,
    why: 'letters a unit with no line break in it writes (its normalised chars, a Han character, a kana or a Hangul syllable counted as the 2.5 letters it writes) from which it counts for largeCopies: a cycle inside one run of text (an enumeration that goes round: 12 items, then the first 8 again, 1.7 copies of 60 Chinese characters, 150 letters). A refrain is lines (a chorus after one verse reads the same to the copy count: 1.5 copies of 152 chars), so a unit that holds a line break keeps largeUnitChars. No healthy model output or real file has 1.5 such copies of a unit of words of 40 chars or more over largeCopiesCoverage of it, whole or cut at 4 points (npm run bench -- thresholds); 110 of the 110,508 translations of the gettext catalogs do (npm run bench -- translations: a flag and its negation, "-mvirt  générer des instructions ..." then "-mno-virt  ne pas générer ...", a sentence that names a phrase at both ends), with units of 40 to 75 letters, so the threshold sits past them',
  },
  largeCopiesCoverage: {
    value: 0.6,
    why: 'share of the output (from the first copy to the end) that copies of a large unit cover when they fail: the real files read as words reach 0.29, model outputs 0.35 (a healthy answer cut mid-way; npm run bench -- thresholds), the loops of issue 36 0.77-1',
  },
  recoveredCopies: {
    value: 32,
    why: 'verbatim copies of a loop of prose (its unit has a function word) that the text moves on from, from which it fails wherever it is (a collapse followed by garbage or a new start); from a quarter of it, it warns. Healthy texts repeat a sentence or a block of prose mid-text up to 11 times (npm run bench -- thresholds)',
  },
} as const;

export interface Loop {
  unit: UnitKind;
  /** The unit has a function word: prose, not a row of data or a line of code. */
  prose: boolean;
  /** The unit is made of rule or border chars (- = _ * # ~ . | + : box drawing). */
  rule: boolean;
  /** The unit is format placeholders and the marks between them (`%s|`, `%-10s `, `{} `): the slots of a template. */
  slots: boolean;
  /**
   * The unit is one number and its mark, no other word (`1, 2, 3, 4,`, `2033 - 2034 -`, `0, 0, 0,`): a list of numbers,
   * a count (its copies alike only because a rising number is a counter) or one number said again.
   */
  count: boolean;
  /**
   * The unit says one number, once or more, with marks and no other word (`0, `, `-1, `, `00 `, `[0, 0, 0],`): a value
   * said again, as tables of data and dumps of bytes do by design, so its loop is certain only from certainValueCopies.
   */
  value: boolean;
  /**
   * The unit holds a table's bar and the line it starts on opens with one (`:white_check_mark: | ` in a row of a
   * Markdown table): a cell said again across a row, which a row of a wide table does by design and ends with the row,
   * so its loop is certain only from certainCellCopies.
   */
  cell: boolean;
  /** A list of numbers that the text breaks off: its last token is a mark of the unit (`2054 - `), not a number or a closing mark. */
  open: boolean;
  /** Copies back to back, nearly verbatim (1 when the repeat is a cycle or a template). */
  copies: number;
  /**
   * For a loop read on the tokens as written (the live reading, which alone may be certain): the copies at its end with
   * no token changed, from the last one that differs from the token a period back (a dot leader of the next line of a
   * table of contents breaks them; a loop a model is stuck in has none). 0 for the readings on the template.
   */
  exactCopies: number;
  /** The copies were counted with a word inserted, dropped or swapped (never certain). */
  near: boolean;
  /** Returns to the same material: region tokens / distinct 3-grams + 1. */
  returns: number;
  /** Tokens per copy after the first that the loop had not had before (0 for a loop; a list names something new in each item). */
  newPerCopy: number;
  novelty: number;
  similarity: number;
  periodTokens: number;
  /** Char range of the loop's first copy (the whitespace after it included), and of the repeat from it. */
  unitStart: number;
  unitEnd: number;
  /** Chars from one copy to the next (the unit with the whitespace after it). */
  periodChars: number;
  onset: number;
  end: number;
  /**
   * For a loop of marks or tags (punctuation, tag, char): its chars from the onset to the end with each run of whitespace
   * between its tokens one char, the size of a flood without the spaces that pad it (a column of an ASCII chart, `|` and
   * `#` 70 spaces apart on each row, is 4 chars a row, not 75). 0 for a loop of words.
   */
  markChars: number;
  /** Share of the text's chars (trailing whitespace aside) from the onset to the end of the repeat. */
  coverage: number;
  /** For the loop at the end: share of the text's chars from where its region's material first came to its end, when the region is words (0 when it is code, numbers or marks, and for other loops). */
  wordCycle: number;
  /** For the loop at the end: the unit is words (two in five of its tokens words with letters, code punctuation under 1%), prose, not code or markup with a comment in it (false for other loops). */
  words: boolean;
  /** For the loop at the end: what its region returns over is rows of a delimited table (delimitedTable.ts): data, no list that runs away (false for other loops). */
  table: boolean;
  /** For a loop of punctuation at the end: it is closing brackets that close what the text opened (brackets.ts), the end of code (false for other loops). */
  closes: boolean;
}

export interface RepetitionFigures {
  chars: number;
  /** The repeat that runs to the end (null when none). */
  tail: Loop | null;
  /** The largest verbatim loop the text moves on from (null when none). */
  recovered: Loop | null;
  /** Share of the last words of prose that repeat an 8-word sequence said twice before, and where they start (restated.ts). */
  restated: Restated;
  /** Copies back to back at the end counted on the normalised chars (whitespace dropped, digits masked, case folded; normalisedCopies.ts). */
  copies: NormalisedCopies;
  /** Share of the last part's normalised chars inside a shingle said earlier in the output (replayed.ts). */
  replay: Replayed;
  /** The loop at the end as the live check reads it (the last LIVE_TOKENS tokens, verbatim): it alone can be certain. */
  live: Loop | null;
  /** Paragraphs at the end that each say the one before again, longer (paragraphChain.ts). */
  chain: ParagraphChain;
  /** Items at the end of a list that each are the one before with more added (growingItems.ts). */
  growing: GrowingItems;
}

/** Share of the output the growing items at its end cover, at least, to be judged: the list is the answer, not a path in it. */
const GROWING_COVERAGE = 0.5;
/** Share of what fails from which a cycle or template at the end warns. */
const WARN_SHARE = 0.75;
/**
 * Share of letters a unit needs before its normalised copies are read as the whole output said
 * over and over: digits are masked, so a healthy table of numbers is one unit (a list of dated
 * prices: letters 0, 6 copies over the whole output); the collapses read 0.5-1.
 */
const WHOLE_COPIES_LETTERS = 0.5;
/** A loop at the end is certain only with copies this similar (verbatim). */
const CERTAIN_SIMILARITY = 0.95;
/** A loop the text moves on from is judged only when its copies are this similar (verbatim). */
const RECOVERED_SIMILARITY = 0.95;
/** A region whose tokens match the token one period back (two tokens either way, or two periods back) this often is a near loop; so are copies walked back (nearRun) that are this similar. */
const NEAR_SIMILARITY = 0.8;
/** Verbatim copies below which the near count is tried. */
const NEAR_ONLY_BELOW = 4;
/** Tokens the live check reads back from the end (about 16 KB of prose, 8 KB of code); first the last LIVE_FIRST. */
const LIVE_TOKENS = 4096;
const LIVE_FIRST = 1024;
/** Tokens after a region that still count as the end (a cut word, a closing mark, an end-of-turn token). */
const END_SLACK = 8;
/** Rule and border chars (and whitespace between them). */
const RULE = /^[\s\-=_*#~.|+:\u2500-\u257f]+$/;

function isRule(s: string): boolean {
  return RULE.test(s);
}

/** A format placeholder of printf (`%s`, `%-10s`, `%5.2f`, `%lu`) or of format strings (`{}`, `{0}`, `{name}`). */
const PLACEHOLDER = String.raw`%[-+ #0]*\d*(?:\.\d+)?(?:ll|l|hh|h|z|j|t)?[sdifuxXoeEgGcp]|\{\d*\}|\{[A-Za-z_]\w*\}`;
/** Placeholders alone, with the whitespace and marks that part them (`|`, `,`, `--`, `<`, quotes, brackets). */
const SLOTS = new RegExp(String.raw`^(?:${PLACEHOLDER}|[\s|,;:/<>()\[\]'"-])*(?:${PLACEHOLDER})(?:${PLACEHOLDER}|[\s|,;:/<>()\[\]'"-])*$`);

/**
 * Is the unit `s` format placeholders and the marks between them: the slots of a template, whose columns a format
 * names one by one? A unit of a loop may start anywhere in its cycle (`s, --%` of `%s, --`): each rotation is tried.
 */
function isSlots(s: string): boolean {
  if (s.length > 64 || (!s.includes('%') && !s.includes('{'))) return false;
  for (let r = 0; r < s.length; r++) if (SLOTS.test(s.slice(r) + s.slice(0, r))) return true;
  return false;
}
/** Words the text uses this many times or fewer are something new (WILD in the template). */
const RARE_MAX = 2;

export const repetition = {
  name: 'repetition' as const,
  kinds: REPETITION_KINDS,
  thresholds: THRESHOLDS,
  liveTokens: LIVE_TOKENS,
  figures(scan: Scan, from: number): RepetitionFigures {
    const t = scan.tokens;
    const n = t.n;
    // certainty (may the stream be closed?) is read as the live check reads it, on the last tokens verbatim, so both
    // agree: the last LIVE_FIRST tokens, and the last LIVE_TOKENS when a loop fills those
    const liveFrom = Math.max(scan.live ? from : 0, n - LIVE_TOKENS);
    // the readings ask whether stretches that end at the same place are a table: one reading answers for several
    const tables = new DelimitedTables();
    let live = readLoops(scan, t.id, Math.max(liveFrom, n - LIVE_FIRST), false, tables).tail;
    if (live && n > LIVE_FIRST && live.onset <= t.start[n - LIVE_FIRST]! + live.periodChars)
      live = readLoops(scan, t.id, liveFrom, false, tables).tail;
    if (scan.live)
      return {
        chars: scan.chars,
        tail: live,
        recovered: null,
        live,
        restated: { share: 0, at: -1 },
        copies: NO_COPIES,
        replay: NOT_REPLAYED,
        chain: NO_CHAIN,
        growing: NO_GROWING,
      };
    // the whole text as a template: words it uses at most twice are something new
    const ids = templateIds(t, scan.counts(), RARE_MAX);
    const { tail, recovered } = readLoops(scan, ids, 0, true, tables);
    return { chars: scan.chars, tail, recovered, live, restated: restated(t), ...atEnd(scan, tables), growing: growingItems(scan.text()) };
  },
  judge(f: RepetitionFigures, t: Values<typeof THRESHOLDS>, ctx): Array<Finding<RepetitionKind>> {
    const out: Array<Finding<RepetitionKind>> = [];
    const atLimit = ctx.finishReason === 'length';
    if (f.tail) {
      const l = f.tail;
      const chars = l.end - l.onset;
      // closing brackets that close what the text opened are the end of code, not a flood
      const structural = isStructural(l);
      const flood = structural && !l.closes;
      // copies counted with a word inserted, dropped or swapped need one more
      const need =
        (atLimit ? t.tailLoopCopiesAtLimit : l.periodTokens >= t.longLoopTokens ? t.longLoopCopies : t.tailLoopCopies) + (l.near ? 1 : 0);
      const size = `${chars} chars, ${Math.round(100 * l.coverage)}% of the output`;
      const limit = floodLimit(l, t);
      // a unit of words may bring a swapped word or two per copy and still be stuck: a list in one template brings more
      const stuck = l.newPerCopy <= t.loopNewPerCopy || (l.words && l.newPerCopy <= t.nearLoopNewShare * l.periodTokens);
      // the slots of a format (`%s|%s|%s`) are as many as its columns: judged by their copies alone, from slotLoopCopies
      const slotsUnder = l.slots && l.copies < t.slotLoopCopies;
      // a count (`1, 2, 3, 4,`) is a list of numbers, no loop, unless it is most of the output and the text breaks off in it
      const countUnder = l.count && !(l.open && l.coverage >= t.countLoopCoverage);
      const loopFails =
        !countUnder &&
        stuck &&
        (structural
          ? flood && l.copies >= need && chars >= limit
          : l.slots
            ? !slotsUnder
            : l.copies >= need || (l.copies >= t.wholeLoopCopies && l.coverage >= t.wholeLoopCoverage));
      // a cycle or a template: judged by how often it returns and what it brings
      const newThings = l.novelty >= t.returnsNovelty;
      const needReturns = (t.returnsCopies * (1 + l.novelty / t.returnsNovelty)) / (atLimit ? 2 : 1);
      if (loopFails) {
        out.push(finding(kindOf(l.unit), 'fail', l.onset, `${describe(l)} to the end (${size})`));
      } else if (!structural && !l.table && !slotsUnder && l.returns >= needReturns) {
        const kind: RepetitionKind = newThings ? 'list_runaway' : 'cycling';
        out.push(
          finding(
            kind,
            'fail',
            l.onset,
            `the end returns ${fmt(l.returns, 1)} times to the same ${newThings ? 'template' : 'material'} (novelty ${fmt(l.novelty, 3)}, ${size})`,
          ),
        );
      } else if (
        !structural &&
        !l.table &&
        !slotsUnder &&
        !newThings &&
        l.wordCycle >= t.wholeCycleCoverage &&
        l.returns >= t.wholeCycleReturns
      ) {
        out.push(
          finding(
            'cycling',
            'fail',
            l.onset,
            `most of the output goes round the same words: it returns ${fmt(l.returns, 1)} times to them (novelty ${fmt(l.novelty, 3)}, ${fmt(100 * l.wordCycle, 0)}% of the output)`,
          ),
        );
      } else if (!countUnder && !slotsUnder && stuck && (structural ? flood && l.copies >= 3 && chars >= limit : l.copies >= need - 0.5)) {
        out.push(finding(kindOf(l.unit), 'warn', l.onset, `${describe(l)} to the end (${size}), under what fails`));
      } else if (!structural && !l.table && !slotsUnder && l.returns >= WARN_SHARE * needReturns) {
        const kind: RepetitionKind = newThings ? 'list_runaway' : 'cycling';
        out.push(
          finding(
            kind,
            'warn',
            l.onset,
            `the end returns ${fmt(l.returns, 1)} times to the same ${newThings ? 'template' : 'material'} (novelty ${fmt(l.novelty, 3)}, ${size}), under the ${fmt(needReturns, 1)} that fail`,
          ),
        );
      }
    }
    // copies counted on the normalised chars (whitespace dropped, digits masked, case folded), never rows of a table,
    // and only where no rule failed already; the unit's shape names the kind, `short` the kind of a unit under a line
    const nc = f.copies;
    const normalisedLoop = (short: RepetitionKind, reason: string, tables = false): void => {
      if ((nc.table && !tables) || out.some((x) => x.severity === 'fail')) return;
      out.push(finding(nc.blank ? 'paragraph_loop' : nc.lines ? 'line_loop' : short, 'fail', nc.onset, reason));
    };
    const copiesToEnd = () =>
      `${fmt(nc.copies, 1)} copies of a unit of ${nc.unitChars} chars back to back to the end, whitespace, digits and case aside (${Math.round(100 * nc.coverage)}% of the output)`;
    // a large unit said again back to back to the end, which wrapping, counters or a cut hid from the token reading
    if (
      nc.copies >= t.largeCopies &&
      (nc.lines ? nc.unitChars >= t.largeUnitChars : nc.unitLetters >= Math.min(t.lineUnitChars, t.largeUnitChars)) &&
      nc.coverage >= t.largeCopiesCoverage &&
      nc.words
    )
      normalisedLoop('sentence_loop', copiesToEnd());
    // a unit of a sentence or more said over again as written, or a block said again, wherever the copies start: after a
    // healthy opening the copies cover little of the output, and wrapping hid them from the token reading
    const asWritten = () =>
      `${fmt(nc.exactCopies, 1)} copies of a unit of ${nc.unitChars} chars back to back to the end, whitespace and case aside (${Math.round(100 * nc.coverage)}% of the output)`;
    const ofWords = nc.words && nc.letters >= WHOLE_COPIES_LETTERS;
    if (ofWords && nc.exactCopies >= t.exactCopies && nc.unitChars >= t.exactUnitChars) normalisedLoop('sentence_loop', asWritten());
    // a block said again as written, numbers and all, is a loop even when it is rows of a table (pipes and commas make
    // them no prose): a table's template comes round by design, a whole block of its rows word for word does not
    if ((ofWords || nc.table) && nc.exactCopies >= t.largeCopies && nc.unitChars >= t.blockUnitChars)
      normalisedLoop('paragraph_loop', asWritten(), true);
    // rows of one template, each with its own figures, whose block of rows is said again with them as written
    if ((ofWords || nc.table) && nc.blockCopies >= t.largeCopies && nc.blockChars >= t.blockUnitChars)
      normalisedLoop(
        'paragraph_loop',
        `${fmt(nc.blockCopies, 1)} copies of a block of ${nc.blockChars} chars back to back to the end, its numbers as written (${Math.round(100 * nc.coverage)}% of the output)`,
        true,
      );
    if (ofWords) {
      // copies whose line breaks fall elsewhere in each: one run of text hard-wrapped, never a chorus or a block written out again
      if (nc.rewrapped && nc.exactCopies >= t.rewrappedCopies && nc.unitChars >= t.rewrappedUnitChars)
        normalisedLoop('sentence_loop', `${asWritten()}, wrapped at other places in each copy`);
      if (nc.exactCopies >= t.endCopies && nc.unitChars >= t.endUnitChars && nc.coverage >= t.endCopiesCoverage)
        normalisedLoop('sentence_loop', asWritten());
    }
    // the whole output one unit said over and over, which markup or counters hid from the token reading ("<USER> <USER>
    // <SYSTEM>" x2.5): the token rule's count and coverage, on the normalised chars. Its unit must be mostly letters:
    // with digits masked, rows of numbers are one unit by design; and its numbers must be counters, if any: "The square of
    // 3 is 9." said for each number is a table written in words; and copies alike only with their numbers masked are words or
    // prose: in code, markup and data a number is a value (an id, a port, a package's index), each a new thing
    if (
      nc.copies >= t.wholeLoopCopies &&
      nc.coverage >= t.wholeLoopCoverage &&
      nc.letters >= WHOLE_COPIES_LETTERS &&
      nc.figures === 0 &&
      (nc.prose || nc.words || nc.exactCopies >= t.wholeLoopCopies)
    )
      normalisedLoop(
        'phrase_loop',
        `the output is ${fmt(nc.copies, 1)} copies of one unit of ${nc.unitChars} chars, whitespace, digits and case aside (${Math.round(100 * nc.coverage)}% of it)`,
      );
    // many copies of a unit of words to the end, counters aside: the token reading took each rising number for something new
    // a unit whose numbers change as figures do, not as counters, is a table of numbers written in words
    if (nc.copies >= t.normalisedLoopCopies && nc.words && nc.letters >= WHOLE_COPIES_LETTERS && nc.figures === 0)
      normalisedLoop('phrase_loop', copiesToEnd());
    // a long last part that replays the output with edits: most of its shingles were said before
    const rp = f.replay;
    if (
      rp.at >= 0 &&
      f.chars >= t.replayMinChars &&
      rp.share >= t.replayShare &&
      rp.words &&
      !rp.table &&
      !out.some((x) => x.severity === 'fail')
    )
      out.push(
        finding(
          'cycling',
          'fail',
          rp.at,
          `the last part replays what the output said before: ${fmt(100 * rp.share, 0)}% of it lies in pieces of ${SHINGLE} chars said earlier (whitespace, digits and case aside)`,
        ),
      );
    // paragraphs that each say the one before again, longer: judged when no loop or cycle was
    const ch = f.chain;
    if (ch.links >= t.chainLinks && ch.words && !out.some((x) => x.severity === 'fail'))
      out.push(
        finding(
          'cycling',
          'fail',
          ch.at,
          `the last ${ch.links + 1} paragraphs each say the one before again, longer (80% of its pieces of 12 chars, whitespace, digits and case aside)`,
        ),
      );
    // a list whose every item at the end is the one before with more added, most of the output: judged when no loop was
    const g = f.growing;
    if (g.items >= t.growingItems && g.coverage >= GROWING_COVERAGE && !out.some((x) => x.severity === 'fail'))
      out.push(
        finding(
          'list_runaway',
          'fail',
          g.at,
          `the last ${g.items} items of a list each are the one before with more added (${Math.round(100 * g.coverage)}% of the output)`,
        ),
      );
    // an end that restates what came before, its copies not back to back: judged when no loop or cycle was
    if (f.restated.share >= t.restatedShare && !out.some((x) => x.severity === 'fail'))
      out.push(
        finding(
          'cycling',
          'fail',
          f.restated.at,
          `the end goes back over what the text said before: ${fmt(100 * f.restated.share, 0)}% of its last ${RESTATE_WORDS} words repeat an 8-word sequence the text had said twice already`,
        ),
      );
    const c = f.live;
    if (c && !c.near && c.similarity >= CERTAIN_SIMILARITY && c.newPerCopy <= t.loopNewPerCopy) {
      const limit = floodLimit(c, t);
      const chars = c.end - c.onset;
      if (
        isStructural(c)
          ? !c.closes && c.exactCopies >= t.tailLoopCopies && c.markChars >= 4 * limit
          : c.exactCopies >= certainCount(c, t) && c.exactCopies * c.periodTokens >= t.certainLoopTokens
      ) {
        // the same loop seen whole becomes certain where it starts; else the live reading is told
        const kind = kindOf(c.unit);
        const same = out.find((x) => x.kind === kind && x.severity === 'fail');
        if (same) same.certain = true;
        else out.push(finding(kind, 'fail', c.onset, `${describe(c)} to the end (${chars} chars): certain`, true));
      }
    }
    // a loop the text moves on from: prose stuck for a while, then garbage or a new start (data and code repeat rows and move on)
    if (f.recovered?.prose && isStuck(f.recovered, t.loopNewPerCopy)) {
      const l = f.recovered;
      const what = `${describe(l)}, then the text moves on (${l.end - l.onset} chars)`;
      if (l.copies >= t.recoveredCopies) out.push(finding(kindOf(l.unit), 'fail', l.onset, what));
      else if (l.copies >= t.recoveredCopies / 4)
        out.push(finding(kindOf(l.unit), 'warn', l.onset, `${what}, under the ${t.recoveredCopies} copies that fail`));
    }
    return out;
  },
} satisfies Detector<RepetitionFigures, RepetitionKind, typeof THRESHOLDS>;

/** Lags of the last tokens of a region tried as its period. */
const PERIOD_PROBES = 32;
/** Tokens of a partial copy at the region's end that the run may leave out. */
const END_PROBES = 8;

/**
 * The period and end that explain the most tokens back to back: the most common lag of the
 * region, and each lag seen among its last tokens (a sentence with a phrase repeated inside
 * it has two lags, the phrase's and the sentence's), each tried ending at the region's end or
 * a few tokens before it (a partial copy, a closing mark).
 */
function bestRun(scan: Scan, ids: Int32Array, lag: Int32Array, lo: number, r: Region): { run: Run; period: number; end: number } {
  // a counter ("Step 12:") is no new thing in the whole reading; the live reading, which alone may be certain, wants
  // copies verbatim, so there a counter still breaks them
  const counter =
    ids === scan.tokens.id
      ? () => false
      : (i: number, p: number) => {
          if (!isCounter(scan, i, p)) return false;
          // a counter is no new thing in a unit of prose, one with a function word ("Step 12: check the"), or in a count
          // ("1, 2, 3,", judged as a list); in code, markup and data a number is a value (an id, a port, an index), each
          // a new thing
          const from = Math.max(0, i - p + 1);
          return hasFunctionWord(scan.tokens, from, i + 1) || isCount(scan.tokens, from, i + 1);
        };
  const candidates = new Set<number>([r.period]);
  for (let i = Math.max(r.from, r.to - PERIOD_PROBES); i < r.to; i++) if (lag[i - lo]! > 0) candidates.add(lag[i - lo]!);
  let best: { run: Run; period: number; end: number; covered: number } | null = null;
  // the shortest period tried: it stands for the region when no period makes two copies
  let shortest = 0;
  for (const p of candidates) {
    if (p > r.to - lo || p > MAX_PERIOD) continue;
    if (shortest === 0 || p < shortest) shortest = p;
    const last = Math.max(r.to - Math.min(p, END_PROBES), lo + p);
    // two copies need the copy before the last one to differ from it in at most a fifth of its tokens (verbatimRun):
    // those differences, counted once for the region's end and then moved a token at a time for each end tried
    if (r.to - 2 * p < lo) continue;
    const budget = Math.floor(p / 5);
    let miss = 0;
    for (let i = r.to - 2 * p; i < r.to - p && miss <= budget + END_PROBES; i++) if (ids[i] !== ids[i + p]) miss++;
    if (miss > budget + END_PROBES) continue;
    // the copies' differences counted once for the period, read by the run from each end
    const counts = new PeriodCounts(ids, lo, r.to, p);
    for (let end = r.to; end >= last && end - 2 * p >= lo; end--) {
      if (end < r.to) {
        // the window [end - 2p, end - p) against the one after it: its last token leaves, one before its start joins
        if (ids[end - p] !== ids[end]) miss--;
        if (ids[end - 2 * p] !== ids[end - p]) miss++;
      }
      if (miss > budget) continue;
      const run = verbatimRun(ids, lo, end, p, counter, counts);
      // a loop has two copies at least: a lag met once (a passage quoted) explains no loop
      if (run.copies < 2) continue;
      const covered = end - run.start;
      if (!best || covered > best.covered || (covered === best.covered && p < best.period)) best = { run, period: p, end, covered };
    }
  }
  if (best) return best;
  if (shortest > 0) return { run: verbatimRun(ids, lo, r.to, shortest, counter), period: shortest, end: r.to };
  return { run: verbatimRun(ids, lo, r.to, Math.min(r.period, r.to - lo), counter), period: Math.min(r.period, r.to - lo), end: r.to };
}

/**
 * Where a reader says a loop starts: the first copy's first token is found by matching, so it
 * may be the full stop of the sentence before ("... forever. Then it loops"). Within the first
 * period, the first token that starts a line, else the first after a sentence end, else the
 * first word; the token found when the unit is punctuation only.
 */
function unitStartNear(scan: Scan, at: number, p: number): number {
  const t = scan.tokens;
  const end = Math.min(t.n, at + p);
  for (let i = at; i < end; i++) if (i > at && t.info[i]! & F_LINE) return i;
  for (let i = at; i < end - 1; i++) if (sentenceEnd(scan, i)) return i + 1;
  for (let i = at; i < end; i++) if ((t.info[i]! & KIND_MASK) !== K_PUNCT) return i;
  return at;
}

/** A unit of punctuation, tags or glued chars: judged by the chars it covers, not its copies alone. */
function isStructural(l: Loop): boolean {
  return isStructuralUnit(l.unit);
}

/** A unit of marks or tags (punctuation, tag, char): a flood, measured by its size, not by its words. */
function isStructuralUnit(unit: UnitKind): boolean {
  return unit === 'punctuation' || unit === 'tag' || unit === 'char';
}

/** Chars of a structural loop at the end that fail: a line's worth of rules, borders and tags; a few of other marks. */
function floodLimit(l: Loop, t: Values<typeof THRESHOLDS>): number {
  return l.unit === 'tag' || l.rule ? t.ruleChars : t.floodChars;
}

/** Copies of a `p`-token unit that run verbatim up to token `end`, none of them before token `from`. */
function exactCopiesTo(ids: Int32Array, from: number, end: number, p: number): number {
  let i = end - 1;
  while (i - p >= from && ids[i] === ids[i - p]) i--;
  return (end - Math.max(from, i + 1 - p)) / p;
}

/** Chars of tokens [from, to) with each gap between two of them (whitespace) one char. */
function collapsedChars(t: Scan['tokens'], from: number, to: number): number {
  let chars = 0;
  for (let i = from; i < to; i++) {
    chars += t.end[i]! - t.start[i]!;
    if (i > from && t.start[i]! > t.end[i - 1]!) chars++;
  }
  return chars;
}

/** What unitWords reads of a unit. */
interface UnitWords {
  numbers: number;
  oneNumber: boolean;
  others: number;
  marks: number;
  bar: boolean;
}

/**
 * The words of the unit [from, to): numbers (and whether they are all one number, `0` in `[0, 0, 0],`) and other words,
 * and its marks, a bar among them or not.
 */
function unitWords(t: Scan['tokens'], from: number, to: number): UnitWords {
  let numbers = 0;
  let first = -1;
  let oneNumber = true;
  let others = 0;
  let marks = 0;
  let bar = false;
  for (let i = from; i < to; i++) {
    const f = t.info[i]!;
    if ((f & KIND_MASK) === K_PUNCT) {
      if (t.id[i] === BAR) bar = true;
      marks++;
    } else if (!isWordToken(f)) continue;
    else if (f & F_NUM) {
      if (numbers++ === 0) first = t.id[i]!;
      else if (t.id[i] !== first) oneNumber = false;
    } else others++;
  }
  return { numbers, oneNumber, others, marks, bar };
}

/**
 * Is the unit [from, to) one number and its mark, no other word (`1,`, `2033 -`, `0,`)? Its copies are a list of numbers:
 * a count, alike only because a rising number is no new thing in a unit, or one number said again (a vector of zeros). A
 * number said again with nothing between but spaces (`412 412 412`) writes no list: it stays a word said again, and
 * a number between bars is a cell of a table's rows.
 */
function isCount(t: Scan['tokens'], from: number, to: number): boolean {
  return isCountUnit(unitWords(t, from, to));
}

/** isCount of a unit with these words. */
function isCountUnit(w: UnitWords): boolean {
  return w.numbers === 1 && w.others === 0 && w.marks > 0 && !w.bar;
}

/**
 * Does a unit with these words say one number, once or more, with marks and no other word (`0, `, `-1, `, `00 `, a row
 * `[0, 0, 0, 0],` of a matrix of zeros)? Said again verbatim it is a value of data said again, as a table of zeros or a
 * dump of bytes writes it by design. Two numbers (`1 + 1 = 2.`) make a statement, not a value.
 */
function isValueUnit(w: UnitWords): boolean {
  return w.numbers > 0 && w.oneNumber && w.others === 0;
}

/** Clean copies from which a loop of words is certain: a format's slots, a value and a table's cell are said again by design and need more. */
function certainCount(c: Loop, t: Values<typeof THRESHOLDS>): number {
  if (c.slots) return t.slotLoopCopies;
  if (c.value) return t.certainValueCopies;
  if (c.cell) return t.certainCellCopies;
  return t.certainCopies;
}

/** The bar that parts a table's cells. */
const BAR = 0x7c;

/** Chars looked back from a loop's onset for the start of its line: a row of a table is shorter (a row that long is no row). */
const ROW_CHARS = 2048;

/** Does the line that holds char `at` open with a bar (spaces before it aside), as a row of a Markdown table does? */
function opensRow(scan: Scan, at: number): boolean {
  const from = Math.max(0, at - ROW_CHARS);
  // the onset's char too: a loop may start on the row's first bar
  const before = scan.slice(from, at + 1);
  const nl = before.lastIndexOf('\n');
  if (nl < 0 && from > 0) return false;
  for (let i = nl + 1; i < before.length; i++) {
    const c = before.charCodeAt(i);
    if (c === BAR) return true;
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return false;
}

/** Does the text end on a mark of the unit [from, to) (`2054 - `, `1, 2, 3,`): a count broken off, not one closed (`…, 10.`, `…, 31];`)? */
function endsOnMark(t: Scan['tokens'], from: number, to: number): boolean {
  const last = t.n - 1;
  if (last < 0 || (t.info[last]! & KIND_MASK) !== K_PUNCT) return false;
  for (let i = from; i < to; i++) if ((t.info[i]! & KIND_MASK) === K_PUNCT && t.id[i] === t.id[last]) return true;
  return false;
}

/** Is token i a number one more than the number a period earlier (a counter: "Step 12:", "Meeting 97")? */
function isCounter(scan: Scan, i: number, p: number): boolean {
  const t = scan.tokens;
  if (!(t.info[i]! & F_NUM)) return false;
  const value = Number(scan.slice(t.start[i]!, t.end[i]!));
  for (let d = -2; d <= 2; d++) {
    const j = i - p + d;
    if (j < 0 || j >= i || !(t.info[j]! & F_NUM)) continue;
    if (Number(scan.slice(t.start[j]!, t.end[j]!)) + 1 === value) return true;
  }
  return false;
}

function isStuck(l: Loop, newMax: number): boolean {
  return l.newPerCopy <= newMax && l.similarity >= RECOVERED_SIMILARITY;
}

/**
 * The loop at the end, and with `moveOn` the loop the text moves on from (the live reading wants the first only). `tables`
 * shares the table readings of the analysis.
 */
function readLoops(
  scan: Scan,
  ids: Int32Array,
  from: number,
  moveOn: boolean,
  tables: DelimitedTables,
): { tail: Loop | null; recovered: Loop | null } {
  const t = scan.tokens;
  const n = t.n;
  if (n - from < 4) return { tail: null, recovered: null };
  const info = t.info;
  // the last region is read only when it reaches the end
  const { last, lag, stretches: runs, bounds } = findRegions(ids, from, n, info, END_SLACK);
  // near copies are walked back (nearRun) in the whole reading only: the live reading, which alone may be certain, wants
  // copies verbatim, and reads the end every 32 deltas
  const walkNear = ids !== t.id;
  const textEnd = trimmedEnd(scan);
  const loopOf = (r: Region, atEnd: boolean): Loop => {
    const walk = atEnd && walkNear;
    const best = bestRun(scan, ids, lag, from, r);
    let { run, period: p, end } = best;
    const novelty = r.words === 0 ? 0 : r.rare / r.words;
    // copies with a word swapped, inserted or dropped are copies too
    // the region starts at the first repeated 3-gram's last token: the copies began K - 1 tokens before, one period after the first
    const repeatsFrom = Math.max(from, r.from - (K - 1));
    const nearCopies = (r.to - repeatsFrom) / r.period + 1;
    let fresh = -1;
    let near = false;
    // a verbatim run that already makes a loop is counted as it is; near copies only add what it misses
    if (
      run.copies < NEAR_ONLY_BELOW &&
      r.near >= NEAR_SIMILARITY &&
      nearCopies > run.copies &&
      r.period <= r.to - from &&
      hasFunctionWord(t, r.to - r.period, r.to)
    ) {
      near = true;
      p = r.period;
      end = r.to;
      run = { start: Math.max(from, repeatsFrom - p), copies: nearCopies, similarity: r.near };
      // the region may open on other repeats (a table before the loop), whose tokens are no new thing of the loop's: what
      // the copies bring is read from where the copies walked back from the end start
      let copiesFrom = repeatsFrom;
      if (walk) {
        const nr = nearRun(lag, from, r.to, p);
        if (nr.copies >= 3) copiesFrom = Math.max(copiesFrom, nr.start + p);
      }
      fresh = newPerCopy(t.id, copiesFrom, end, p, (i) => isCounter(scan, i, p));
    } else if (walk && run.copies < NEAR_ONLY_BELOW && r.period <= r.to - from && hasFunctionWord(t, r.to - r.period, r.to)) {
      // copies that an edit of a long word shifts by more than two tokens: each copy's 3-grams met about a period back
      const nr = nearRun(lag, from, r.to, r.period);
      // taken where they make more copies than a near loop needs (the verbatim ones, fewer, are judged as they are)
      if (nr.copies > NEAR_ONLY_BELOW + 1 && nr.similarity >= NEAR_SIMILARITY) {
        near = true;
        p = r.period;
        end = r.to;
        run = nr;
        fresh = newPerCopy(t.id, nr.start + p, end, p, (i) => isCounter(scan, i, p));
      }
    }
    const verbatim = run.copies >= 2;
    if (fresh < 0) fresh = 0;
    let onsetTok = verbatim ? Math.max(from, run.start) : Math.max(from, r.from - Math.min(r.distinct, r.from - from));
    if (verbatim) {
      // copies are counted from where a reader says the loop starts
      onsetTok = unitStartNear(scan, onsetTok, p);
      run = { ...run, copies: (end - onsetTok) / p };
    }
    const unitTo = verbatim ? end : r.to;
    const unitFrom = unitTo - p;
    const unit = unitKind(t, unitFrom, unitTo, (i) => sentenceEnd(scan, i));
    const unitText = scan.slice(t.start[unitFrom]!, t.end[unitTo - 1]!);
    // the unit's words, read once for a count and for a value
    const words = unitWords(t, unitFrom, unitTo);
    const count = walkNear && isCountUnit(words);
    return {
      unit,
      prose: hasFunctionWord(t, unitFrom, unitTo),
      rule: isRule(unitText),
      slots: isSlots(unitText),
      count,
      value: isValueUnit(words),
      cell: words.bar && opensRow(scan, t.start[onsetTok]!),
      open: count && endsOnMark(t, unitFrom, unitTo),
      copies: verbatim ? run.copies : 1,
      exactCopies: verbatim && !walkNear ? exactCopiesTo(ids, onsetTok, end, p) : 0,
      near,
      returns: r.copies,
      novelty,
      newPerCopy: fresh,
      similarity: verbatim ? run.similarity : r.verbatim,
      periodTokens: p,
      // the unit as it first came: the copy the loop starts with
      unitStart: t.start[onsetTok]!,
      unitEnd: onsetTok + p < n ? t.start[onsetTok + p]! : t.end[n - 1]!,
      periodChars: unitFrom - p >= 0 ? t.start[unitFrom]! - t.start[unitFrom - p]! : t.end[unitTo - 1]! - t.start[unitFrom]!,
      onset: t.start[onsetTok]!,
      end: t.end[r.to - 1]!,
      markChars: isStructuralUnit(unit) ? collapsedChars(t, onsetTok, r.to) : 0,
      coverage: textEnd > 0 ? (t.end[r.to - 1]! - t.start[onsetTok]!) / textEnd : 0,
      wordCycle: 0,
      // judged for the loop at the end only (a loop the text moves on from is judged by its copies' similarity)
      words: atEnd && isWordRegion(t, unitFrom, unitTo),
      table: false,
      // the brackets are counted from the text's start: only for punctuation that runs to the end
      closes: atEnd && unit === 'punctuation' && closesOpened(t, onsetTok, n),
    };
  };
  // loops are the periodic stretches of the regions; returns and novelty are the region's
  const tailRegion = last && n - last.to <= END_SLACK ? last : null;
  // the stretches are measured whole only where they are read: the one at the end, and those long enough for three
  // copies of their period (which alone is counted for the others)
  // the last stretch that reaches the end; one of under K tokens (a last rare word or mark met far back) after another
  // with nothing but marks between them is that one's end, not a loop of its own
  let tailAt = runs > 0 && n - bounds[2 * runs - 1]! <= END_SLACK ? runs - 1 : -1;
  if (tailAt > 0) {
    const a = bounds[2 * tailAt]!;
    const b = bounds[2 * tailAt + 1]!;
    const beforeTo = bounds[2 * tailAt - 1]!;
    if (b - a < K && n - beforeTo <= END_SLACK && onlyMarks(info, beforeTo, a)) tailAt--;
  }
  // a stretch that is the whole region (a loop and nothing before it) measures and reads as the region: read once
  const stretchIsRegion =
    tailAt >= 0 && tailRegion !== null && tailRegion.from === bounds[2 * tailAt] && tailRegion.to === bounds[2 * tailAt + 1];
  const tailStretch =
    tailAt < 0 ? null : stretchIsRegion ? tailRegion : measureStretch(ids, lag, from, bounds[2 * tailAt]!, bounds[2 * tailAt + 1]!, info);
  let tail: Loop | null = null;
  if (tailRegion) {
    const cycle = loopOf(tailRegion, true);
    const loop = stretchIsRegion ? cycle : tailStretch ? loopOf(tailStretch, true) : null;
    tail = loop && loop.copies >= cycle.copies ? { ...loop, returns: cycle.returns, novelty: cycle.novelty } : cycle;
  } else if (tailStretch) tail = loopOf(tailStretch, true);
  // how much of the text the repeats at the end cover, when they are words: read once, for the end only
  const tailRepeats = tailRegion ?? tailStretch;
  if (tail && tailRepeats && textEnd > 0 && wordShare(tailRepeats.letterWords, tailRepeats.codeMarks, tailRepeats.to - tailRepeats.from))
    tail.wordCycle = (t.end[tailRepeats.to - 1]! - t.start[Math.max(from, tailRepeats.from - tailRepeats.distinct)]!) / textEnd;
  // rows of a table return to their template by design (judged on the region's last rows: its last TABLE_CHARS chars)
  if (tail && tailRepeats) {
    const regionEnd = t.end[tailRepeats.to - 1]!;
    const regionStart = t.start[Math.max(from, tailRepeats.from - tailRepeats.distinct)]!;
    const tableFrom = Math.max(regionStart, regionEnd - TABLE_CHARS);
    tail.table = tables.of(scan.slice(tableFrom, regionEnd), tableFrom);
  }
  let recovered: Loop | null = null;
  for (let k = 0; moveOn && k < runs; k++) {
    const a = bounds[2 * k]!;
    const b = bounds[2 * k + 1]!;
    // three copies at least: two periods of repeats
    if (k === tailAt || b - a + K - 1 < 2 * stretchPeriod(lag, from, a, b)) continue;
    const l = loopOf(measureStretch(ids, lag, from, a, b, info), false);
    if (l.copies >= 3 && (!recovered || l.end - l.onset > recovered.end - recovered.onset)) recovered = l;
  }
  return { tail, recovered };
}

/** Chars of a region's end read for the rows of a table: TABLE_ROWS_READ rows of 256 chars. */
const TABLE_CHARS = 65_536;

function describe(l: Loop): string {
  return `${fmt(l.copies, 1)} copies of a ${l.unit} back to back (similarity ${fmt(l.similarity)})`;
}

function kindOf(unit: UnitKind): RepetitionKind {
  switch (unit) {
    case 'punctuation':
    case 'char':
      return 'punctuation_flood';
    case 'tag':
      return 'tag_spam';
    default:
      return `${unit}_loop` as RepetitionKind;
  }
}

function sentenceEnd(scan: Scan, i: number): boolean {
  const t = scan.tokens;
  const id = t.id[i]!;
  if ((t.info[i]! & KIND_MASK) !== K_PUNCT) return false;
  if (id < 128) return id === 0x2e || id === 0x21 || id === 0x3f;
  return isSentenceEndChar(scan.slice(t.start[i]!, t.start[i]! + 1).charCodeAt(0));
}

/** Are the tokens [from, to) punctuation only (none at all included)? */
function onlyMarks(info: Int32Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if ((info[i]! & KIND_MASK) !== K_PUNCT) return false;
  return true;
}

/** Chars of the text without its trailing whitespace. */
function trimmedEnd(scan: Scan): number {
  const t = scan.tokens;
  return t.n > 0 ? t.end[t.n - 1]! : 0;
}
