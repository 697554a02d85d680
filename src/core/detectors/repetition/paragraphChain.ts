/**
 * Paragraphs at the end that each say the one before again, with something added: a model that
 * restates the same person or answer paragraph after paragraph while a list in it grows ("… she
 * enjoys hiking, painting." then "… hiking, painting, chess."). No copies run back to back (each
 * is longer), the returns are too few for the cycle rule, and the output is too short for the
 * replay share; but each paragraph holds most of the one before it.
 *
 * Read back from the end, paragraph by paragraph (blank lines part them): a paragraph holds the
 * one before when CONTAINED of that one's normalised shingles (SHINGLE chars, whitespace dropped,
 * case folded, each run of digits one mark) are among its own and it is GROWTH chars longer (the
 * same text said again is the loop readings'; a template filled with another name is no longer).
 * The chain stops at the first paragraph that does not; most texts stop at once, on the lengths
 * alone. The normalised chars are those of the analysis's view of the end (normalisedTail.ts),
 * hashed into a table reused by every call.
 */
import { IntTable } from '../../intTable.js';
import { isSpace, type NormalisedTail } from './normalisedTail.js';
import * as shingleHash from './shingleHash.js';

// module-level copies of what the hash loops call per char: an imported binding is read through its module's cell
const { basePower, mixed, rolled } = shingleHash;

export interface ParagraphChain {
  /** Paragraphs at the end that each hold the one before (0 when the last does not). */
  links: number;
  /** Char offset where the first paragraph of the chain starts (-1 when there is no link). */
  at: number;
  /** The chain is words (two in five of its tokens words with letters, code punctuation under 1%); set by the caller, which has the tokens. */
  words: boolean;
}

export const NO_CHAIN: ParagraphChain = { links: 0, at: -1, words: false };

/** Normalised chars per shingle: two or three words, so a word changed spoils a dozen shingles, not the paragraph. */
const SHINGLE = 12;
/** Share of the paragraph before's shingles a paragraph holds when it says it again. */
const CONTAINED = 0.8;
/** Normalised chars a paragraph adds to the one before, at least: a word or an item, past a name spelt one or two letters longer in a template. */
const GROWTH = 3;
/** Normalised chars a paragraph needs to be read: a sentence, past headings and list labels. */
const MIN_CHARS = 60;
/** Chars of the text read back from its end. */
const WINDOW = 16_384;

/** The shingle table, reused by every call (intTable.ts): sized for the longest paragraph of the window. */
const SLOTS = 1 << 15;
const table = new IntTable(SLOTS);

/** The chain of paragraphs at the end of the text `v` views (char offsets in the whole output). */
export function paragraphChain(v: NormalisedTail): ParagraphChain {
  const text = v.text;
  const from = Math.max(v.from, text.length - WINDOW);
  let end = blankBefore(text, text.length, from);
  // the later paragraph's normalised chars [laterFrom, laterTo), and whether its shingles are in the table
  let laterFrom = 0;
  let laterTo = 0;
  let hashed = false;
  let links = 0;
  let at = -1;
  while (end > from) {
    const start = paragraphStart(text, end, from);
    const a = normIndex(v, start);
    const b = normIndex(v, end);
    if (b - a < MIN_CHARS) break;
    if (laterTo > 0) {
      if (laterTo - laterFrom < b - a + GROWTH) break;
      if (!hashed) {
        fill(v.norm, laterFrom, laterTo);
        hashed = true;
      }
      if (held(v.norm, a, b) < CONTAINED * (b - a - SHINGLE + 1)) break;
      links++;
      at = v.offset + start;
    }
    laterFrom = a;
    laterTo = b;
    hashed = false;
    end = blankBefore(text, start, from);
  }
  return links === 0 ? NO_CHAIN : { links, at, words: false };
}

/** The first normalised char of the view at or after char `i` of its text. */
function normIndex(v: NormalisedTail, i: number): number {
  let lo = 0;
  let hi = v.m;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v.at[mid]! < i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What the char that leaves a shingle was multiplied by: a shingle's hash rolls on by one char, not SHINGLE multiplies per shingle. */
const OUT_POW = basePower(SHINGLE);

/** Puts the shingles of norm[from, to) in the table (a new use: the table reads empty first). */
function fill(norm: Int32Array, from: number, to: number): void {
  table.clear();
  const { mask, keys, stampOf, stamp } = table;
  // a paragraph longer than half the table keeps its first shingles: the table never fills
  const last = Math.min(to - SHINGLE, from + SLOTS / 2);
  let h = 0;
  for (let i = from; i < from + SHINGLE - 1 && i < to; i++) h = rolled(h, 0, norm[i]!, OUT_POW);
  for (let i = from; i <= last; i++) {
    const e = i + SHINGLE - 1;
    h = rolled(h, e - SHINGLE >= from ? norm[e - SHINGLE]! : 0, norm[e]!, OUT_POW);
    const x = mixed(h);
    let slot = x & mask;
    while (stampOf[slot] === stamp && keys[slot] !== x) slot = (slot + 1) & mask;
    stampOf[slot] = stamp;
    keys[slot] = x;
  }
}

/** How many shingles of norm[from, to) are in the table. */
function held(norm: Int32Array, from: number, to: number): number {
  const { mask, keys, stampOf, stamp } = table;
  let n = 0;
  let h = 0;
  for (let i = from; i < from + SHINGLE - 1 && i < to; i++) h = rolled(h, 0, norm[i]!, OUT_POW);
  for (let i = from; i + SHINGLE <= to; i++) {
    const e = i + SHINGLE - 1;
    h = rolled(h, e - SHINGLE >= from ? norm[e - SHINGLE]! : 0, norm[e]!, OUT_POW);
    const x = mixed(h);
    let slot = x & mask;
    while (stampOf[slot] === stamp && keys[slot] !== x) slot = (slot + 1) & mask;
    if (stampOf[slot] === stamp) n++;
  }
  return n;
}

/** Where the paragraph that ends at `end` starts: after the last blank line before it, or at `from`. */
function paragraphStart(text: string, end: number, from: number): number {
  let lineStart = text.lastIndexOf('\n', end - 1) + 1;
  while (lineStart > from) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    if (isBlank(text, Math.max(prevStart, from), lineStart - 1)) return lineStart;
    lineStart = prevStart;
  }
  return Math.max(lineStart, from);
}

/** The end of the text before the whitespace that precedes `start` (where the paragraph before ends). */
function blankBefore(text: string, start: number, from: number): number {
  let end = start;
  while (end > from && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}
