/**
 * The tokenizer's output: one row per token in growable typed arrays (allocated by need, so
 * a 200-char text costs a few hundred bytes, not a megabyte). Whitespace is not a token:
 * what it was is kept in each token's flags (space, line break or blank line before it), so
 * two copies of a sentence that differ only in line wrapping are the same token sequence.
 */
import { grownInt32 } from './grownInt32.js';

/** Token kinds (bits 0-1 of info). */
/** Letters, digits and underscores of a script that writes words apart. */
export const K_WORD = 0;
/** One letter of a script written without spaces (Han, kana, Thai). */
export const K_SOLO = 1;
/** One punctuation char, symbol or emoji. */
export const K_PUNCT = 2;
/** A word inside an HTML/XML tag: structure, not content. */
export const K_MARK = 3;
export const KIND_MASK = 3;

/** Token flags (bits of info). */
/** Whitespace comes before it. */
export const F_SPACE = 1 << 2;
/** A line break comes before it (the first token of a line). */
export const F_LINE = 1 << 3;
/** A blank line comes before it (the first token of a paragraph). */
export const F_BLANK = 1 << 4;
/** Inside code (a fenced block or an inline span), a URL, an HTML comment or a tag. */
export const F_CODE = 1 << 5;
/** Inside a fenced code block (F_CODE too): what a fence holds is read apart, as code or as the words it turned into. */
export const F_FENCE = 1 << 9;
/** The first occurrence of this token (case folded) in the text. */
export const F_NEW = 1 << 6;
/** A word that starts with a digit. */
export const F_NUM = 1 << 7;
/** A function word ("the", "of", "und", "и"). */
export const F_FUNC = 1 << 8;
/** The whitespace before it is two chars or more, or a tab: the gap between the columns of a table or of aligned output. */
export const F_GAP = 1 << 10;
/** A word of letters of two scripts glued together ("HinweisЉ", "artillery日"): CJK beside Latin is counted by the solo tokens instead. */
export const F_MIXSCRIPT = 1 << 11;
/** The script of a word or solo letter (SC_* of charClass), bits 12-15. */
export const SCRIPT_SHIFT = 12;

export class TokenBuffer {
  n = 0;
  start: Int32Array;
  end: Int32Array;
  id: Int32Array;
  info: Int32Array;

  constructor(capacity = 64) {
    const c = Math.max(16, capacity);
    this.start = new Int32Array(c);
    this.end = new Int32Array(c);
    this.id = new Int32Array(c);
    this.info = new Int32Array(c);
  }

  push(start: number, end: number, id: number, info: number): void {
    const n = this.n;
    if (n === this.id.length) this.grow();
    this.start[n] = start;
    this.end[n] = end;
    this.id[n] = id;
    this.info[n] = info;
    this.n = n + 1;
  }

  private grow(): void {
    const size = this.id.length * 2;
    this.start = grownInt32(this.start, size);
    this.end = grownInt32(this.end, size);
    this.id = grownInt32(this.id, size);
    this.info = grownInt32(this.info, size);
  }
}

/** Tokens a spare buffer may hold at most (16 bytes each): room for a text of about 750 KB, 4 MB kept between calls. */
const SPARE_MAX = 1 << 18;
let spare: TokenBuffer | null = null;

/**
 * A buffer for at least `capacity` tokens, empty: the one the last whole-text analysis gave back
 * when it is large enough, else a new one. Allocating the four arrays (zeroed) and growing them
 * cost a whole-text analysis more than the tokens it wrote to them on short texts.
 */
export function takeTokenBuffer(capacity: number): TokenBuffer {
  const b = spare;
  if (b === null || b.id.length < capacity) return new TokenBuffer(capacity);
  spare = null;
  b.n = 0;
  return b;
}

/** Gives a buffer back once nothing reads it any more (kept when it is the largest seen, up to SPARE_MAX tokens). */
export function giveBackTokenBuffer(b: TokenBuffer): void {
  if (b.id.length <= SPARE_MAX && (spare === null || spare.id.length < b.id.length)) spare = b;
}

/** Whitespace runs of at least RUN_MIN chars, in order (start, length), plus totals. */
export class SpaceRuns {
  static readonly RUN_MIN = 8;
  n = 0;
  start = new Int32Array(8);
  length = new Int32Array(8);
  /** Whitespace chars in the text. */
  total = 0;

  push(start: number, length: number): void {
    this.total += length;
    if (length < SpaceRuns.RUN_MIN) return;
    if (this.n === this.start.length) {
      const s = new Int32Array(this.n * 2);
      s.set(this.start);
      this.start = s;
      const l = new Int32Array(this.n * 2);
      l.set(this.length);
      this.length = l;
    }
    this.start[this.n] = start;
    this.length[this.n] = length;
    this.n++;
  }
}

/** A word or a solo char (a CJK character, an emoji): not punctuation, not markup. */
export function isWordToken(info: number): boolean {
  const k = info & KIND_MASK;
  return k === K_WORD || k === K_SOLO;
}
