/**
 * Tail repeat: a loop or flood that runs to the end of the output, found at char level,
 * whatever its size.
 *
 * The most common collapse is a model that answers a little and then repeats one unit
 * (a char, a word glued to itself, a phrase, a sentence, a line, a paragraph) until the
 * token limit. A collapsed model does not stop: the loop reaches the end of the text. A
 * healthy text repeats back to back only a few times and then goes on ("!!!", "ha ha ha",
 * ")))" closing a form, a chorus sung twice). So what counts here is the number of
 * verbatim copies of the unit that run to the end, judged by what the unit is (one char
 * needs many more copies than a sentence), not the number of chars the loop covers: an
 * answer that is one short sentence sixteen times is a collapse even though it is 150 chars.
 *
 * How: figures() takes the last TAIL_WINDOW chars of the text (trailing whitespace dropped),
 * reverses them and computes the Z-function (linear time, typed arrays); for a period p,
 * p + Z[p] is how many chars at the end have period p. The loop reported is the periodic
 * suffix with at least 3 copies that covers the most chars (the smallest period among
 * equals), plus the run of one char that ends the text. A loop that fills the whole window
 * is followed further back with block compares (native string equality), up to EXTEND_CAP.
 * The same search runs once more with every whitespace run read as one space, for copies
 * that differ only in spacing or line wrapping (language units only: data and layout are
 * judged verbatim). push() keeps nothing: the view's slice of the tail is all figures() needs.
 *
 * Judging: the verbatim loop, else the one-char run, else the folded loop, fails when its
 * copies reach what its unit needs (floods by chars); with finishReason 'length' a few copies
 * suffice. The loop's start is moved to a line, sentence or word start, where a reader would
 * say it begins.
 */
import { finding, type Finding, type FindingKind } from '../finding.js';
import type { TextDetector, JudgeContext, TextView } from './detector.js';

/*
 * Measured on (figures quoted in the comments below): the 65 ok
 * texts of corpus-real, the 411 healthy texts of test/corpus, and the 1,477 healthy files of
 * bench/realWorld.ts (node_modules, /usr/share/doc) whole and streamed (a third of them cut every
 * 160 chars, 36,070 cut points). No healthy text ends in a loop these rules fail; mid-text, the
 * largest healthy tail loops are quoted per threshold.
 */
export interface TailRepeatThresholds {
  /**
   * A flood (one char, or a unit glued to itself with no space: "GGGG", "0000", "!!!!",
   * "OfOfOf", "|---|---") that runs to the end fails from this many chars. Healthy endings flood
   * a few chars ("!!!", "...", "))))" closing Lisp, "}}}}" closing JSON; the longest non-rule
   * flood at any cut point of the healthy files is 9 digits); the real collapses run 64 ("OfOf"),
   * 120 ("G"), 783 ("|") and thousands ("0", U+FFFD). 32 leaves room for the 16 zeros of an address.
   */
  tailFloodFailChars: number;
  /** ...and a glued unit of 2+ chars needs this many copies too ("hahaha" is 3, a digit string "1234567890" repeated in a test 4.8; "OfOf..." collapses reach 32). */
  tailFloodMinCopies: number;
  /**
   * A flood of rule chars (- = _ * # ~ . and box drawing, with | + :) no longer than this is a
   * horizontal rule, a table border, a comment box or a leader ("Chapter 1 ........ 5"), not a
   * flood: those span at most a line (healthy files reach 80 "-" and 65 box-drawing chars); the
   * border and pipe floods of collapses run for hundreds to thousands of chars.
   */
  tailRuleMaxChars: number;
  /**
   * Copies of one word ("ha ha ha", "very very very") or of one tag or special token
   * ("</div></div>", "<|im_end|>") at the end that fail. Songs reach 8 ("na na na ..."), nested
   * closing tags in healthy HTML 4 verbatim; word loops of collapses run 20 to thousands.
   */
  tailWordLoopFailCopies: number;
  /**
   * Copies of a phrase, a sentence or a line at the end that fail. Healthy text says the same
   * sentence or line back to back two or three times (a refrain; 3.7 in the healthy files, and a
   * valgrind log of 8.4 equal lines once); sentence and line loops of collapses run 14 to hundreds.
   */
  tailPhraseLoopFailCopies: number;
  /** Copies of a unit of several lines or sentences at the end that fail: a chorus ends a song twice or three times; a test file repeats one block 5 times once mid-text; paragraph loops of collapses run 4 to 18. */
  tailParagraphLoopFailCopies: number;
  /**
   * Units with no letter (rows of digits, blank table rows "| | |", closing brackets, ". . .")
   * and the cells of one table row ("| Yes | Yes |") are data and layout, which repeat by nature
   * (a zero matrix, an empty form, a feature table): they need this many copies. Healthy code
   * and docs reach 14 mid-text (a lookup table of numbers) and 22 closing braces in generated code.
   */
  tailBareLoopFailCopies: number;
  /**
   * With finishReason 'length' (cut by the token limit), a loop at the end with this many copies
   * fails whatever its unit: the generation was cut while it was looping. Cut at any of the 36,070
   * points, the healthy files fail 0.06% of the time (one in 1,800 cuts, mostly lines of logs).
   */
  tailCutMinCopies: number;
  /** ...when it covers at least this many chars (8 chars of one char, "abab" twice). */
  tailCutMinChars: number;
  /** ...and a unit with no letter (closing brackets "})", a row of numbers) needs this many: code cut at the limit can end six brackets deep. */
  tailCutBareMinCopies: number;
  /**
   * Certain (the stream may be aborted): this many copies covering at least
   * tailCertainChars (four times both for data and layout). No healthy text streamed in 160-char
   * pieces is ever certain; 298 of 733 collapses (synthetic and real) are certain before their text ends.
   */
  tailCertainCopies: number;
  tailCertainChars: number;
  /** Certain for a flood from this many chars: two lines of one char, twice the longest rule. */
  tailCertainFloodChars: number;
}

export const TAIL_REPEAT_DEFAULTS: Readonly<TailRepeatThresholds> = Object.freeze({
  tailFloodFailChars: 32,
  tailFloodMinCopies: 8,
  tailRuleMaxChars: 120,
  tailWordLoopFailCopies: 12,
  tailPhraseLoopFailCopies: 8,
  tailParagraphLoopFailCopies: 4,
  tailBareLoopFailCopies: 16,
  tailCutMinCopies: 4,
  tailCutMinChars: 8,
  tailCutBareMinCopies: 8,
  tailCertainCopies: 16,
  tailCertainChars: 600,
  tailCertainFloodChars: 256,
});

/** The kinds a tail loop is named by; '' when there is no loop of 3+ copies at the end. */
export type TailLoopKind =
  | ''
  | 'char_flood'
  | 'punctuation_flood'
  | 'word_loop'
  | 'phrase_loop'
  | 'sentence_loop'
  | 'line_loop'
  | 'paragraph_loop'
  | 'tag_spam';

export interface TailRepeatFigures {
  /** Period (unit length, chars) of the longest periodic suffix with 3+ copies; 0 when none. */
  tailLoopPeriod: number;
  /** Chars of the text it covers, from tailLoopStart to the last non-whitespace char. */
  tailLoopChars: number;
  /** Copies of the unit: tailLoopChars / tailLoopPeriod (a partial copy counts as a fraction). */
  tailLoopCopies: number;
  /** Char offset where the loop starts (moved to a line, sentence or word start when the unit has one); -1 when none. */
  tailLoopStart: number;
  /** What the unit is (see TailLoopKind); '' when none. */
  tailLoopKind: TailLoopKind;
  /** 1 when the unit is data or layout: no letter (digits, punctuation), or the cells of one table row. */
  tailLoopBare: number;
  /** 1 when the unit is made only of rule chars (- = _ * # ~ + | : . and box drawing), as rules, borders and leaders are. */
  tailLoopRule: number;
  /** 1 when the loop filled everything examined (window plus EXTEND_CAP): its size is a lower bound. */
  tailLoopCapped: number;
  /** The unit, whitespace shown as in the text, cut to 40 chars. */
  tailLoopUnit: string;
  /** Chars of the run of one char that ends the text (trailing whitespace dropped); 0 for an empty text. */
  tailRunChars: number;
  /** Where that run starts (-1 for an empty text) and its char (a UTF-16 unit). */
  tailRunStart: number;
  tailRunChar: string;
  /**
   * The same loop search with every whitespace run read as one space (copies that differ only
   * in spacing or line wrapping), reported only when it finds more copies than the verbatim
   * search; 0 / -1 / '' otherwise. Copies are counted in the folded text, chars and start in the text.
   */
  tailLooseLoopPeriod: number;
  tailLooseLoopChars: number;
  tailLooseLoopCopies: number;
  tailLooseLoopStart: number;
  tailLooseLoopKind: TailLoopKind;
  tailLooseLoopBare: number;
  tailLooseLoopUnit: string;
}

/** Chars of the text's tail examined by the Z-function. */
export const TAIL_WINDOW = 8192;
/** How far back (chars) a loop filling the window is followed with block compares. */
const EXTEND_CAP = 65536;
const EXTEND_BLOCK = 8192;
const UNIT_SHOWN = 40;

const SOLO = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const LETTER = /\p{L}/u;
const ALNUM = /[\p{L}\p{N}]/u;
const WORDCHARS_ONLY = /^[\p{L}\p{N}\p{M}_]+$/u;
const SPACE = /\s/;
/** Markup tags and special tokens only: "</div>", "<br/>", "<|im_end|>", "<｜▁pad▁｜>", "[PAD]", "</s>". */
const TAGS_ONLY = /^(?:\s*(?:<\/?[A-Za-z][^<>]{0,80}>|<[|｜][^<>]{0,40}[|｜]>|<\/?[a-z_]{1,12}>|\[[A-Z_]{2,16}\]))+\s*$/;
/** Units of rules, table borders, comment boxes and leaders: rule chars only, with at least one that draws a line ("|" or "+" alone do not). */
const isRuleUnit = (unit: string): boolean => /^[-=_*#~+|:.\u2500-\u257f]+$/.test(unit) && /[-=_*#~.\u2500-\u257f]/.test(unit);
const SENTENCE_END = /[.!?\u2026\u0964](?=\s)|[\u3002\uff01\uff1f]/g;

/**
 * Scratch arrays, reused by every call (figures() runs to completion synchronously and keeps
 * nothing in them between calls), so a snapshot allocates nothing per char.
 */
const REV = new Uint16Array(TAIL_WINDOW);
const FOLDED = new Uint16Array(TAIL_WINDOW);
const FOLDED_REV = new Uint16Array(TAIL_WINDOW);
const FOLDED_AT = new Int32Array(TAIL_WINDOW);
const Z = new Int32Array(TAIL_WINDOW);

/**
 * Z-function of a[0, n) into Z, for i < limit only: Z[i] = length of the longest common
 * prefix of a and a[i..]. Linear: each char is matched once past the rightmost match.
 */
function zFunction(a: Uint16Array, n: number, limit: number): Int32Array {
  const z = Z;
  if (n === 0) return z;
  z[0] = n;
  let l = 0;
  let r = 0;
  for (let i = 1; i < limit; i++) {
    let k = 0;
    if (i < r) k = Math.min(r - i, z[i - l]!);
    while (i + k < n && a[k] === a[i + k]) k++;
    z[i] = k;
    if (i + k > r) {
      l = i;
      r = i + k;
    }
  }
  return z;
}

/**
 * Follows a run with period p that covers [start, end) further back, block by block, up to
 * EXTEND_CAP chars; returns the new start.
 */
function extendBack(view: TextView, start: number, p: number, floor: number): number {
  while (start > floor) {
    const len = Math.min(EXTEND_BLOCK, start - floor);
    const a = view.slice(start - len, start);
    const b = view.slice(start - len + p, start + p);
    if (a === b) {
      start -= len;
      continue;
    }
    let i = len - 1;
    while (i >= 0 && a.charCodeAt(i) === b.charCodeAt(i)) i--;
    return start - len + i + 1;
  }
  return start;
}

/**
 * Where a reader would say a loop's unit begins, as an offset into its first copy: the first
 * line start (past blank lines), else the first sentence start, else the first word start.
 * `before` is the (up to) two chars before the loop, '' at the start of the text.
 */
function rotation(before: string, first: string): number {
  if (before === '') return 0;
  const prev = before.charAt(before.length - 1);
  if (first.includes('\n')) {
    let i = prev === '\n' ? 0 : first.indexOf('\n') + 1;
    while (i < first.length && (first.charCodeAt(i) === 10 || first.charCodeAt(i) === 13)) i++;
    return i < first.length ? i : 0;
  }
  if (!SPACE.test(first)) return 0;
  SENTENCE_END.lastIndex = 0;
  const sentence = SENTENCE_END.exec(first);
  if (sentence) {
    // Already at a sentence start when a sentence end and a space come just before.
    if (SPACE.test(prev) && /[.!?\u2026\u0964]/.test(before.charAt(0))) return 0;
    if (/[\u3002\uff01\uff1f]/.test(prev)) return 0;
    let i = sentence.index + 1;
    while (i < first.length && SPACE.test(first.charAt(i))) i++;
    return i < first.length ? i : 0;
  }
  if (SPACE.test(prev)) return 0;
  const m = /\s\S/.exec(first);
  return m ? m.index + 1 : 0;
}

/**
 * Data and layout rather than language: a unit with no letter (numbers, brackets, blank table
 * rows), or cells of one table row ("| Yes " across eight columns).
 */
function isBare(unit: string): boolean {
  return !LETTER.test(unit) || (unit.includes('|') && !unit.includes('\n'));
}

/** Names a loop from its unit (already rotated to its start). */
export function classifyUnit(unit: string): TailLoopKind {
  if (unit.length === 1) return ALNUM.test(unit) || unit === '\ufffd' ? 'char_flood' : 'punctuation_flood';
  // Bare tags and special tokens ("</div>", "<pad>", "<|im_end|>"); a line holding one tag with attributes is a line.
  if (TAGS_ONLY.test(unit) && !/<[^<>]*\s[^<>]*>/.test(unit)) return 'tag_spam';
  if (!ALNUM.test(unit)) return unit.includes('\n') ? (unit.trim().includes('\n') ? 'paragraph_loop' : 'line_loop') : 'punctuation_flood';
  if (unit.includes('\n')) {
    // Lines that hold something: blank lines between copies do not make a paragraph.
    let lines = 0;
    for (const line of unit.split('\n')) if (line.trim() !== '') lines++;
    return lines >= 2 ? 'paragraph_loop' : 'line_loop';
  }
  if (!SPACE.test(unit)) {
    if (SOLO.test(unit)) {
      if (/[\u3002\uff01\uff1f]/.test(unit)) return 'sentence_loop';
      return unit.length <= 4 ? 'word_loop' : 'phrase_loop';
    }
    if (WORDCHARS_ONLY.test(unit)) return 'char_flood'; // a unit glued inside a word: "OfOfOf"
    if (!LETTER.test(unit)) return 2 * (unit.match(/\p{N}/gu)?.length ?? 0) >= unit.length ? 'char_flood' : 'punctuation_flood';
    return 'word_loop'; // a word with its punctuation: "the,the,the,"
  }
  const sentences = unit.match(SENTENCE_END)?.length ?? 0;
  if (sentences >= 2) return 'paragraph_loop';
  if (sentences === 1) return 'sentence_loop';
  return unit.trim().split(/\s+/).length === 1 ? 'word_loop' : 'phrase_loop';
}

/** The longest periodic suffix with at least 3 copies of a reversed text (smallest period among equals), and its one-char run. */
function longestPeriodicSuffix(rev: Uint16Array, n: number): { period: number; covered: number; run: number } {
  // Periods up to n / 3 (three copies), and 1 for the run of one char.
  const z = zFunction(rev, n, Math.max(2, Math.floor(n / 3) + 1));
  let period = 0;
  let covered = 0;
  for (let p = 1; 3 * p <= n; p++) {
    const c = p + z[p]!;
    if (c >= 3 * p && c > covered) {
      covered = c;
      period = p;
    }
  }
  return { period, covered, run: n >= 2 ? 1 + z[1]! : n };
}

const NO_LOOSE = {
  tailLooseLoopPeriod: 0,
  tailLooseLoopChars: 0,
  tailLooseLoopCopies: 0,
  tailLooseLoopStart: -1,
  tailLooseLoopKind: '' as TailLoopKind,
  tailLooseLoopBare: 0,
  tailLooseLoopUnit: '',
};

const NONE: TailRepeatFigures = Object.freeze({
  tailLoopPeriod: 0,
  tailLoopChars: 0,
  tailLoopCopies: 0,
  tailLoopStart: -1,
  tailLoopKind: '',
  tailLoopBare: 0,
  tailLoopRule: 0,
  tailLoopCapped: 0,
  tailLoopUnit: '',
  tailRunChars: 0,
  tailRunStart: -1,
  tailRunChar: '',
  ...NO_LOOSE,
}) as TailRepeatFigures;

const shown = (unit: string): string => (unit.length > UNIT_SHOWN ? unit.slice(0, UNIT_SHOWN) : unit);

/** The figures of a text (its last TAIL_WINDOW chars, followed back up to EXTEND_CAP). */
export function tailRepeatFigures(view: TextView): TailRepeatFigures {
  const total = view.length;
  const from = Math.max(0, total - TAIL_WINDOW);
  const tail = view.slice(from, total).trimEnd();
  const n = tail.length;
  if (n === 0) return { ...NONE };
  const end = from + n;
  const rev = REV;
  for (let i = 0; i < n; i++) rev[n - 1 - i] = tail.charCodeAt(i);
  const { period, covered, run } = longestPeriodicSuffix(rev, n);

  // The run of one char that ends the text, followed back past the window when it fills it.
  let runChars = run;
  let capped = false;
  if (runChars === n && from > 0) {
    const start = extendBack(view, from, 1, Math.max(0, from - EXTEND_CAP));
    runChars = end - start;
    capped = start > 0 && start === Math.max(0, from - EXTEND_CAP);
  }
  const runFigures = { tailRunChars: runChars, tailRunStart: end - runChars, tailRunChar: tail.charAt(n - 1) };
  const loose = looseLoop(rev, n, from, period === 0 ? 0 : covered / period);
  if (period === 0) return { ...NONE, ...runFigures, ...loose };
  let start = end - covered;
  if (period === 1) {
    start = end - runChars;
  } else {
    if (covered === n && from > 0) {
      start = extendBack(view, from, period, Math.max(0, from - EXTEND_CAP));
      capped = start > 0 && start === Math.max(0, from - EXTEND_CAP);
    }
    start += rotation(view.slice(Math.max(0, start - 2), start), view.slice(start, start + period));
  }
  const chars = end - start;
  const unit = view.slice(start, start + period);
  return {
    tailLoopPeriod: period,
    tailLoopChars: chars,
    tailLoopCopies: copiesOf(chars, unit),
    tailLoopStart: start,
    tailLoopKind: classifyUnit(unit),
    tailLoopBare: isBare(unit) ? 1 : 0,
    tailLoopRule: isRuleUnit(unit) ? 1 : 0,
    tailLoopCapped: capped ? 1 : 0,
    tailLoopUnit: shown(unit),
    ...runFigures,
    ...loose,
  };
}

/**
 * The same search on the tail with every whitespace run read as one space, so that copies
 * that differ only in spacing or line wrapping (a pasted stream wrapped every 80 columns,
 * drifting indentation) still count as one loop. Reported only when it sees more copies than
 * the verbatim search.
 */
/** The whitespace the loose search folds: ASCII blanks, no-break and ideographic space, line and paragraph separators, BOM. */
function isFoldedSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

function looseLoop(rev: Uint16Array, n: number, from: number, verbatimCopies: number): typeof NO_LOOSE {
  // Fold the reversed tail: frev[j] is the j-th char from the end, at[j] its offset in the tail.
  const frev = FOLDED_REV;
  const at = FOLDED_AT;
  let m = 0;
  let inSpace = false;
  let changed = false;
  for (let i = 0; i < n; i++) {
    const c = rev[i]!;
    if (isFoldedSpace(c)) {
      if (inSpace) {
        changed = true;
        continue;
      }
      inSpace = true;
      if (c !== 32) changed = true;
      frev[m] = 32;
    } else {
      inSpace = false;
      frev[m] = c;
    }
    at[m++] = n - 1 - i;
  }
  if (!changed) return NO_LOOSE; // nothing folded: the verbatim search said it all
  const { period, covered } = longestPeriodicSuffix(frev, m);
  if (period === 0 || covered / period <= verbatimCopies) return NO_LOOSE;
  // Only the chars around the loop's start are needed: two before it and two copies.
  const loopStart = m - covered; // in the folded text, forward
  const from2 = Math.max(0, loopStart - 2);
  const to2 = Math.min(m, loopStart + 2 * period);
  const codes = FOLDED;
  for (let k = from2; k < to2; k++) codes[k - from2] = frev[m - 1 - k]!;
  const around = codesToString(codes, 0, to2 - from2);
  const s0 = loopStart - from2;
  const s = s0 + rotation(loopStart === 0 ? '' : around.slice(0, s0), around.slice(s0, s0 + period));
  const unit = around.slice(s, s + period);
  // Data and layout are judged verbatim only: folding the lines of a zero matrix or of nested
  // closing brackets into one run would make one long "0 0 0" or "} } }".
  if (isBare(unit)) return NO_LOOSE;
  const startN = from2 + s;
  return {
    tailLooseLoopPeriod: period,
    tailLooseLoopChars: n - at[m - 1 - startN]!,
    tailLooseLoopCopies: copiesOf(m - startN, unit),
    tailLooseLoopStart: from + at[m - 1 - startN]!,
    tailLooseLoopKind: classifyUnit(unit),
    tailLooseLoopBare: isBare(unit) ? 1 : 0,
    tailLooseLoopUnit: shown(unit),
  };
}

const UTF16 = new TextDecoder('utf-16le');
/** The string of codes[from, to) (a lone surrogate reads as U+FFFD, one char for one, so offsets hold). */
function codesToString(codes: Uint16Array, from: number, to: number): string {
  return UTF16.decode(codes.subarray(from, to));
}

/**
 * Copies of `unit` in a loop of `chars` chars that starts with it: a last copy that lacks only
 * whitespace (trimmed from the end of the text) is whole ("milk milk milk" is 3 copies of "milk ").
 */
function copiesOf(chars: number, unit: string): number {
  const p = unit.length;
  const rest = chars % p;
  if (rest > 0 && unit.slice(rest).trim() === '') return Math.ceil(chars / p);
  return chars / p;
}

/** One loop as the judge sees it (the verbatim one or the whitespace-folded one). */
interface Loop {
  period: number;
  chars: number;
  copies: number;
  start: number;
  kind: TailLoopKind;
  bare: boolean;
  rule: boolean;
  capped: boolean;
  unit: string;
}

/** Closing brackets and separators only ("})", "]]", "}, "): nesting, bounded by its depth. */
const CLOSERS = /^[)\]}>;,\s]+$/;

/**
 * A flood is judged by its chars: one char, or a short unit glued to itself with no space.
 * Spaced punctuation ("| | |", ". . .") is layout, and closing brackets of 2+ chars ("})"
 * nested six deep) are nesting: both are judged as bare loops, by copies.
 */
const isFlood = (l: Loop): boolean =>
  (l.kind === 'char_flood' || l.kind === 'punctuation_flood') && (l.period === 1 || !(/\s/.test(l.unit) || CLOSERS.test(l.unit)));

/** Copies a loop needs to fail (floods: see floodFails), without stream evidence or, with `cut`, when the output was cut by the token limit. */
function copiesToFail(l: Loop, t: TailRepeatThresholds, cut: boolean): number {
  if (l.bare) return cut ? t.tailCutBareMinCopies : t.tailBareLoopFailCopies;
  let needed: number;
  switch (l.kind) {
    case 'tag_spam':
    case 'word_loop':
      needed = t.tailWordLoopFailCopies;
      break;
    case 'phrase_loop':
    case 'sentence_loop':
    case 'line_loop':
      needed = t.tailPhraseLoopFailCopies;
      break;
    case 'paragraph_loop':
      needed = t.tailParagraphLoopFailCopies;
      break;
    default:
      // A glued unit with letters ("OfOf") that is not judged as a flood cannot get here.
      needed = t.tailPhraseLoopFailCopies;
  }
  return cut ? Math.min(needed, t.tailCutMinCopies) : needed;
}

/** One char, counting a char outside the BMP (an emoji: two UTF-16 units) as one. */
const isOneChar = (l: Loop): boolean => l.period === 1 || (l.period === 2 && /^[\ud800-\udbff][\udc00-\udfff]$/.test(l.unit));

/** Chars of a flood, an emoji counting as one. */
const floodChars = (l: Loop): number => (isOneChar(l) ? Math.floor(l.copies) : l.chars);

/** Whether a flood fails: enough chars, and for a glued unit of 2+ chars enough copies. */
function floodFails(l: Loop, t: TailRepeatThresholds, cut: boolean): boolean {
  const oneChar = isOneChar(l);
  if (cut) return floodChars(l) >= t.tailCutMinChars && (oneChar || l.copies >= t.tailCutMinCopies);
  return floodChars(l) >= t.tailFloodFailChars && (oneChar || l.copies >= t.tailFloodMinCopies);
}

/**
 * Data and layout loops (a table of zeros, closing brackets) are certain only this many times
 * further: a generated lookup table can hold hundreds of equal entries, so only a loop far past
 * any table is beyond doubt mid-stream (it still fails at the end with tailBareLoopFailCopies).
 */
const BARE_CERTAIN_SCALE = 4;

const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const flat = (s: string): string => JSON.stringify(s.replace(/\s+/g, ' '));

function judgeLoop(l: Loop, ctx: JudgeContext, loose: boolean): Finding | null {
  if (l.period === 0 || l.kind === '') return null;
  const t = ctx.thresholds;
  // Rule chars that fit on a line are a rule, a border or a leader.
  if (l.rule && l.chars <= t.tailRuleMaxChars) return null;
  const flood = isFlood(l);
  const fails = (cut: boolean): boolean =>
    flood ? floodFails(l, t, cut) : l.copies >= copiesToFail(l, t, cut) && l.chars >= (cut ? t.tailCutMinChars : 0);
  const fail = fails(false);
  const cut = !fail && ctx.finishReason === 'length' && fails(true);
  if (!fail && !cut) return null;
  const scale = !flood && l.bare ? BARE_CERTAIN_SCALE : 1;
  const certain =
    fail &&
    (flood ? floodChars(l) >= t.tailCertainFloodChars : l.copies >= scale * t.tailCertainCopies && l.chars >= scale * t.tailCertainChars);
  const copies = fmt(Math.floor(l.copies * 10) / 10);
  const size = `${l.capped ? 'at least ' : ''}${copies} copies, ${l.chars} chars`;
  const what =
    l.period === 1
      ? `${flat(l.unit)} repeated`
      : `unit ${flat(l.unit)}${l.period > UNIT_SHOWN ? '…' : ''} (${l.period} chars${loose ? ', spacing aside' : ''})`;
  const detail = `${what}: ${size}, runs to the end of the output${ctx.finishReason === 'length' ? ' and the output was cut by the token limit' : ''}`;
  return finding(l.kind as FindingKind, 'fail', l.start, detail, certain);
}

/**
 * The live abort check's prefilter: false when no loop or flood at the end of the text can be
 * certain yet, found without the periodic-suffix search. Why it is exact for the verbatim search:
 * a certain loop or flood covers at least m = min(tailCertainChars, tailCertainFloodChars) chars
 * in 3+ copies of period p, so its last 2m/3 chars (at least) occur again p chars earlier; if the
 * last K <= 2m/3 chars of the tail occur nowhere earlier in it, there is none. For the
 * whitespace-folded search the same holds on the folded tail with K <= tailCertainCopies - 1 (16
 * copies of a unit: the last 15 folded chars recur), except for a flood of 3-15 copies whose
 * units are mostly whitespace, which the full analysis still fails (only its early close waits).
 */
function mayEndInCertainLoop(view: TextView, t: TailRepeatThresholds): boolean {
  const total = view.length;
  const tail = view.slice(Math.max(0, total - TAIL_WINDOW), total).trimEnd();
  const m = Math.min(t.tailCertainChars, t.tailCertainFloodChars);
  if (tail.length < Math.min(m, t.tailCertainCopies)) return false;
  const k = Math.max(1, Math.min(64, Math.floor((2 * m) / 3)));
  if (recursEarlier(tail, k)) return true;
  return foldedRecursEarlier(tail, Math.max(1, Math.min(k, t.tailCertainCopies - 1)));
}

/**
 * recursEarlier on the text with each whitespace run read as one space, as looseLoop folds it,
 * without building the folded text: the last k folded chars are read back from the end, then
 * every earlier place that starts with the same char is compared, folding as it goes.
 */
function foldedRecursEarlier(tail: string, k: number): boolean {
  const key: number[] = [];
  let i = tail.length - 1;
  while (i >= 0 && key.length < k) {
    const c = tail.charCodeAt(i);
    if (isFoldedSpace(c)) {
      while (i > 0 && isFoldedSpace(tail.charCodeAt(i - 1))) i--;
      key.push(32);
    } else {
      key.push(c);
    }
    i--;
  }
  if (key.length < k) return false;
  key.reverse();
  const keyStart = i + 1; // where the key's first char (or whitespace run) starts
  const first = key[0]!;
  for (let j = keyStart - 1; j >= 0; j--) {
    const c = tail.charCodeAt(j);
    if (first === 32 ? !isFoldedSpace(c) : c !== first) continue;
    // a folded space starts where its whitespace run starts
    if (first === 32 && j > 0 && isFoldedSpace(tail.charCodeAt(j - 1))) continue;
    let q = 0;
    let x = j;
    while (q < k && x < tail.length) {
      const cx = tail.charCodeAt(x);
      if (isFoldedSpace(cx)) {
        if (key[q] !== 32) break;
        while (x < tail.length && isFoldedSpace(tail.charCodeAt(x))) x++;
      } else {
        if (key[q] !== cx) break;
        x++;
      }
      q++;
    }
    if (q === k) return true;
  }
  return false;
}

/** Whether the last k chars of s occur again earlier in s (overlapping allowed). */
function recursEarlier(s: string, k: number): boolean {
  if (s.length <= k) return false;
  return s.lastIndexOf(s.slice(s.length - k), s.length - k - 1) >= 0;
}

/** Judges tail figures: a loop or flood that runs to the end fails by its unit's copies; with the token limit cut, a small one suffices. */
export function judgeTailRepeat(f: TailRepeatFigures, ctx: JudgeContext): Finding[] {
  const verbatim = judgeLoop(
    {
      period: f.tailLoopPeriod,
      chars: f.tailLoopChars,
      copies: f.tailLoopCopies,
      start: f.tailLoopStart,
      kind: f.tailLoopKind,
      bare: f.tailLoopBare === 1,
      rule: f.tailLoopRule === 1,
      capped: f.tailLoopCapped === 1,
      unit: f.tailLoopUnit,
    },
    ctx,
    false,
  );
  if (verbatim) return [verbatim];
  // The loop that covers most may be a unit that ends in a flood ("Wow!!!!...!" sung thrice): the flood alone.
  if (f.tailRunChars >= 3 && f.tailLoopPeriod !== 1) {
    const run = judgeLoop(
      {
        period: 1,
        chars: f.tailRunChars,
        copies: f.tailRunChars,
        start: f.tailRunStart,
        kind: classifyUnit(f.tailRunChar),
        bare: !LETTER.test(f.tailRunChar),
        rule: isRuleUnit(f.tailRunChar),
        capped: false,
        unit: f.tailRunChar,
      },
      ctx,
      false,
    );
    if (run) return [run];
  }
  const loose = judgeLoop(
    {
      period: f.tailLooseLoopPeriod,
      chars: f.tailLooseLoopChars,
      copies: f.tailLooseLoopCopies,
      start: f.tailLooseLoopStart,
      kind: f.tailLooseLoopKind,
      bare: f.tailLooseLoopBare === 1,
      rule: false,
      capped: false,
      unit: f.tailLooseLoopUnit,
    },
    ctx,
    true,
  );
  return loose ? [loose] : [];
}

export function createTailRepeatDetector(): TextDetector<TailRepeatFigures> {
  return {
    name: 'tailRepeat',
    mayBeCertain: true,
    push(_delta: string, _offset: number): void {
      // Nothing to keep: figures() reads the tail from the view.
    },
    figures(view: TextView): TailRepeatFigures {
      return tailRepeatFigures(view);
    },
    cannotBeCertain(view: TextView, t: TailRepeatThresholds): boolean {
      return !mayEndInCertainLoop(view, t);
    },
    judge(f: TailRepeatFigures, ctx: JudgeContext): Finding[] {
      return judgeTailRepeat(f, ctx);
    },
  };
}
