/**
 * Copies back to back at the end of the output, counted on its normalised chars: whitespace
 * and line breaks dropped, each run of digits one mark, letters case folded. A loop hidden by
 * wrapping (a copy hard-wrapped at other places, words cut where the width fell), by counters
 * (items numbered 1, 2, then 3, 4) or by a cut (1.6 copies of a block) is the same loop here.
 *
 * The token reading (repeats.ts) counts copies of tokens, and takes a word the text uses at
 * most twice for something new: a long unit said twice and a part is all new words to it.
 * This one counts exact copies of chars, so it says nothing of near copies; what it adds is
 * the large unit said 1.5 to 3 times that the token reading misses.
 *
 * Over the reversed normalised tail, the Z function gives for each shift p how many chars
 * match p chars earlier, read back from the end: copies = 1 + Z[p] / p. The period taken is
 * the one that covers the most chars (the shortest of those: a loop of a short unit is not
 * one of its multiples). O(n) over the last WINDOW chars.
 */
import * as charClass from '../../charClass.js';
import { DelimitedTables } from '../../text/delimitedTables.js';
import { writtenLetters } from '../language/writtenLetters.js';
import { isSpace, type NormalisedTail, normalisedTail, within } from './normalisedTail.js';

export interface NormalisedCopies {
  /** Copies back to back to the end, the first one included (1.6 for a block said again and cut at 60%). */
  copies: number;
  /** The same copies with their numbers read as written (at most `copies`): items whose counters rise are one copy here. */
  exactCopies: number;
  /** Normalised chars of the unit (letters, marks and one per run of digits; no whitespace). */
  unitChars: number;
  /** Share of the unit's normalised chars that are letters. */
  letters: number;
  /**
   * The unit's size in the letters it writes: its normalised chars, a Han character, a kana or a Hangul syllable counted
   * as the two or three letters it writes (writtenLetters.ts), so a unit of Chinese and one of English that say as much
   * are as large.
   */
  unitLetters: number;
  /** Start of the first copy in the text, and the share of the text (trailing whitespace aside) from it to the end. */
  onset: number;
  coverage: number;
  /** The unit holds a line break, a blank line. */
  lines: boolean;
  blank: boolean;
  /**
   * A line break falls at another place in one copy than in the copy before it: the copies are one run of text hard-wrapped
   * (at one width, or each at its own), not lines said again (a chorus, a stanza or a block written out twice keeps its breaks).
   */
  rewrapped: boolean;
  /** The copies are words (two in five of their tokens words with letters, code punctuation under 1%), not code or markup; set by the caller, which has the tokens. */
  words: boolean;
  /** The copies hold a function word: prose, where a number that rises is a counter, not a value of code or data; set by the caller. */
  prose: boolean;
  /** The copies are rows of a delimited table (delimitedTable.ts): data, read by the table's own rules. */
  table: boolean;
  /**
   * Where the unit is said again with other numbers (rows of one template, each with its own figures): the longest block
   * of such units said again back to back with its numbers as written, in normalised chars (0 when none), and its copies.
   */
  blockChars: number;
  blockCopies: number;
  /**
   * Runs of digits of the unit whose numbers change from copy to copy other than as a counter does (a counter goes up or
   * down by the same step, at most the unit's runs of digits, from copy to copy): "The square of 3 is 9." said for each
   * number holds one (the square), a numbered item said again holds none. A unit with such a figure is a table of
   * numbers written in words, not a loop its counters hid.
   */
  figures: number;
}

/** Chars of the text read back from its end (about three copies of the longest unit, MAX_UNIT). */
export const WINDOW = 12_288;
/** Longest unit, in normalised chars (about 1,000 words of prose). */
const MAX_UNIT = 4096;

export const NO_COPIES: NormalisedCopies = {
  copies: 0,
  exactCopies: 0,
  unitChars: 0,
  letters: 0,
  unitLetters: 0,
  onset: -1,
  coverage: 0,
  lines: false,
  blank: false,
  rewrapped: false,
  words: false,
  prose: false,
  table: false,
  blockChars: 0,
  blockCopies: 0,
  figures: 0,
};

const LETTER = /\p{L}/u;

/** Is this UTF-16 unit a letter (as \p{L} reads it alone)? ASCII by its range, the rest by the pattern. */
function isLetter(c: number): boolean {
  if (c < 0x80) return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
  return LETTER.test(String.fromCharCode(c));
}

/** The Z function's array, shared by every call (the analyzer runs one call at a time); a call writes the cells it reads. */
let Z = new Int32Array(0);
/** Whether a line break comes before each char of the copies, shared the same way. */
let BREAKS = new Uint8Array(0);

/**
 * The copies at the end of a text (trailing whitespace aside), or none (copies 0) when it has no
 * repeat. `text` is the text's end from char `offset` on (the last WINDOW chars suffice). `tables`
 * shares the table readings of the analysis (delimitedTables.ts).
 */
export function normalisedCopies(text: string, offset = 0, tail?: NormalisedTail, tables = new DelimitedTables()): NormalisedCopies {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  // the window's chars from the view of the analysis when it holds them exactly (normalisedTail.ts), else its own
  const start = Math.max(0, end - WINDOW);
  let v = tail;
  let cut = v && v.text.length + v.offset === text.length + offset ? within(v, start + offset - v.offset) : null;
  if (!v || !cut) {
    // (arrays of its own when the view of the analysis was given: that one is still to be read)
    v = normalisedTail(text.slice(0, end), offset, WINDOW, tail !== undefined);
    cut = { first: 0, cutRun: false };
  }
  // the normalised chars read last first, in place: char k of the reversed window is norm[last - k], from the text at
  // shift + vat[last - k] (a run of digits cut at the window's start is a mark of the window, where the window starts)
  const m = v.m - cut.first;
  if (m < 4) return NO_COPIES;
  const norm = v.norm;
  const vat = v.at;
  const shift = v.offset - offset;
  const last = v.m - 1;
  const cutRun = cut.cutRun;
  const atOf = (k: number): number => (k === m - 1 && cutRun ? start : shift + vat[last - k]!);
  // the period that covers the most chars back from the end, the shortest of those (periods past `top` are not read, so
  // their Z values are not computed)
  const top = Math.min(MAX_UNIT, Math.floor((2 * m) / 3));
  const z = zOfReversed(norm, last, m, top + 1);
  let best = 0;
  let reach = 0;
  for (let p = 1; p <= top; p++) {
    const r = p + z[p]!;
    if (z[p]! * 2 >= p && r > reach) {
      best = p;
      reach = r;
    }
  }
  if (best === 0) return NO_COPIES;
  // the copies with their numbers as written: they end at the first run of digits that differs from its run a period before
  let exactReach = reach;
  for (let k = 0; k + best < reach; k++) {
    if (norm[last - k] !== 0x30) continue;
    // the window's first run of digits may be cut by where the window starts: it is taken as the same
    if (k + best === m - 1) break;
    if (!sameDigits(text, atOf(k), atOf(k + best))) {
      exactReach = best + k;
      break;
    }
  }
  // read forward from the onset: whether a line break lies in the gap before each char of the copies (the gap before the
  // first is not theirs), each compared with the gap a period before; the first that differs ends the reading
  const from = last - (reach - 1);
  if (BREAKS.length < reach) BREAKS = new Uint8Array(Math.max(reach, 2 * BREAKS.length));
  let rewrapped = false;
  let prev = atOf(reach - 1);
  for (let j = 1; j < reach; j++) {
    const at = shift + vat[from + j]!;
    let b = 0;
    for (let i = prev + 1; i < at; i++)
      if (text.charCodeAt(i) === 0x0a) {
        b = 1;
        break;
      }
    BREAKS[j] = b;
    prev = at;
    if (j > best && b !== BREAKS[j - best]) {
      rewrapped = true;
      break;
    }
  }
  // with digits masked the unit may be one row of a template said again with other figures, where a block of rows is
  // what comes round as written: the rows' numbers read as one value each, and the periods of those values
  const read: CopiesRead = { text, end, norm, last, best, reach, m, atOf };
  const block = exactReach * 2 < 3 * best && reach >= 3 * best ? blockOfUnits(read) : null;
  let letters = 0;
  // twice the letters the unit writes (writtenLetters counts so)
  let written = 0;
  for (let k = 0; k < best; k++) {
    const c = norm[last - k]!;
    if (isLetter(c)) letters++;
    if (c < 0x3000) written += 2;
    else {
      // the class read first fills the script's cache
      charClass.classOf(c);
      written += writtenLetters(charClass.scriptOfCode(c), 1);
    }
  }
  const onset = atOf(reach - 1);
  // the unit as the last period holds it (the copy the onset starts may begin with the end of the sentence before)
  const unit = text.slice(atOf(best - 1), end);
  return {
    copies: reach / best,
    exactCopies: exactReach / best,
    unitChars: best,
    letters: letters / best,
    unitLetters: written / 2,
    onset: offset + onset,
    coverage: (end - onset) / (offset + end),
    lines: unit.includes('\n'),
    blank: /\n[ \t]*\n/.test(unit),
    rewrapped,
    words: false,
    prose: false,
    table: tables.of(text.slice(onset, end), offset + onset),
    blockChars: block ? block.units * best : 0,
    blockCopies: block ? block.copies : 0,
    figures: figuresOf(read),
  };
}

/**
 * The copies as normalisedCopies found them, for the readings of their numbers: the text (to char `end`, trailing
 * whitespace aside), its normalised chars read last first (char k of the reversed window is norm[last - k], from char
 * atOf(k) of the text; m of them), the unit of `best` normalised chars and the `reach` of the copies.
 */
interface CopiesRead {
  text: string;
  end: number;
  norm: Int32Array;
  last: number;
  best: number;
  reach: number;
  m: number;
  atOf: (k: number) => number;
}

/** The values of one run of digits of the unit in each whole copy, shared by every call as Z is. */
let VALUES = new Float64Array(0);

/** NormalisedCopies.figures: the unit's runs of digits whose numbers change from whole copy to whole copy, not as a counter. */
function figuresOf({ text, end, norm, last, best, reach, m, atOf }: CopiesRead): number {
  const copies = Math.floor(reach / best);
  if (copies < 2) return 0;
  let runs = 0;
  for (let k = 0; k < best; k++) if (norm[last - k] === 0x30) runs++;
  if (runs === 0) return 0;
  if (VALUES.length < copies) VALUES = new Float64Array(Math.max(copies, 2 * VALUES.length));
  let figures = 0;
  for (let k = 0; k < best; k++) {
    if (norm[last - k] !== 0x30) continue;
    let read = 0;
    for (let u = 0; u < copies; u++) {
      const j = k + u * best;
      // the window's first run of digits may be cut by where the window starts: its copy is left out
      if (j === m - 1) break;
      let v = 0;
      let i = atOf(j);
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (!(c >= 0x30 && c <= 0x39)) break;
        v = v * 10 + (c - 0x30);
      }
      // and the text's last run of digits may be cut by where the text ends ("... the early 20"): left out too
      if (i === end) continue;
      VALUES[read++] = v;
    }
    if (read < 2) continue;
    const step = VALUES[1]! - VALUES[0]!;
    let counter = Math.abs(step) <= runs;
    for (let u = 2; u < read && counter; u++) if (VALUES[u]! - VALUES[u - 1]! !== step) counter = false;
    if (!counter) figures++;
  }
  return figures;
}

/** Each unit's numbers as one value, the last unit last, shared by every call as Z is. */
let UNIT_NUMBERS = new Int32Array(0);

/**
 * The block of units (`best` normalised chars each, read back from the end over `reach`) said again back to back with the
 * numbers of its units as written: a hash of each unit's runs of digits, then the Z function over those hashes (zOfReversed, as over the chars). The
 * block that reaches furthest back with 1.5 copies or more, the shortest of those; null when none.
 */
function blockOfUnits({ text, norm, last, best, reach, m, atOf }: CopiesRead): { units: number; copies: number } | null {
  const n = Math.floor(reach / best);
  if (UNIT_NUMBERS.length < n) UNIT_NUMBERS = new Int32Array(Math.max(n, 2 * UNIT_NUMBERS.length));
  const h = UNIT_NUMBERS;
  for (let u = 0; u < n; u++) {
    let x = 0x811c9dc5 | 0;
    for (let k = u * best; k < (u + 1) * best; k++) {
      if (norm[last - k] !== 0x30 || k === m - 1) continue;
      for (let i = atOf(k); ; i++) {
        const c = text.charCodeAt(i);
        if (!(c >= 0x30 && c <= 0x39)) break;
        x = Math.imul(x ^ c, 0x01000193);
      }
      x = Math.imul(x ^ 0x2c, 0x01000193);
    }
    h[n - 1 - u] = x;
  }
  // the Z function of the hashes, read from the last unit back (the copies' Z is read by then: its array is free)
  const z = zOfReversed(h, n - 1, n, n);
  let units = 0;
  let furthest = 0;
  for (let p = 2; p <= Math.floor((2 * n) / 3); p++) {
    const to = p + z[p]!;
    if (z[p]! * 2 >= p && to > furthest) {
      units = p;
      furthest = to;
    }
  }
  return units === 0 ? null : { units, copies: furthest / units };
}

/** Do the runs of digits that start at chars i and j of `text` say the same number? */
function sameDigits(text: string, i: number, j: number): boolean {
  for (;;) {
    const a = text.charCodeAt(i++);
    const b = text.charCodeAt(j++);
    const da = a >= 0x30 && a <= 0x39;
    if (da !== (b >= 0x30 && b <= 0x39)) return false;
    if (!da) return true;
    if (a !== b) return false;
  }
}

/**
 * The Z function of a[0, m), where a[k] = norm[last - k] (the chars read back from `last`): z[i] = the longest common
 * prefix of a and a[i..] (z[0] = 0), for i under `upto` only (z[i] reads no value past z[i - 1], so those are exact).
 */
function zOfReversed(norm: Int32Array, last: number, m: number, upto: number): Int32Array {
  const lim = Math.min(m, upto);
  if (Z.length < lim) Z = new Int32Array(lim);
  const z = Z;
  z[0] = 0;
  let l = 0;
  let r = 0;
  for (let i = 1; i < lim; i++) {
    let k = 0;
    if (i < r) k = Math.min(r - i, z[i - l]!);
    while (i + k < m && norm[last - k] === norm[last - i - k]) k++;
    z[i] = k;
    if (i + k > r) {
      l = i;
      r = i + k;
    }
  }
  return z;
}
