/**
 * The tables the tokenizer reads per char: the class of each ASCII char (space, punctuation, or
 * which kind of word char), its lower-case form, both in one entry for the chars of a word, the
 * separators a number may hold, and the lower-case form of any BMP char; plus the seed of a word's
 * hash (FNV-1a of its lower-cased chars).
 */
import { CH_SPACE, CH_WORD, classOf } from '../charClass.js';

/** The seed of a word's hash, each lower-cased char folded in by `Math.imul(h ^ c, 0x01000193)`. */
export const WORD_SEED = 0x811c9dc5 | 0;

/** Values of ASCII: whitespace, punctuation (1), and from A_WORD on the chars of a word. */
export const A_SPACE = 0;
export const A_WORD = 2;
export const A_LOWER = 2;
export const A_UPPER = 3;
export const A_DIGIT = 4;
export const A_UNDER = 5;
/** The class of each ASCII char (A_*). */
export const ASCII = new Uint8Array(128);
/** The lower-case form of each ASCII char. */
export const LOWER = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = classOf(c);
  ASCII[c] =
    k === CH_SPACE
      ? A_SPACE
      : k !== CH_WORD
        ? 1
        : c >= 0x41 && c <= 0x5a
          ? A_UPPER
          : c >= 0x61 && c <= 0x7a
            ? A_LOWER
            : c === 0x5f
              ? A_UNDER
              : A_DIGIT;
  LOWER[c] = c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}
/** The kind of a word char as a bit, so that a word's kinds are the OR of its chars' (WORD_CHAR's low byte). */
export const W_LOWER = 1;
export const W_UPPER = 2;
export const W_DIGIT = 4;
export const W_UNDER = 8;
export const W_KINDS = 0xff;
/**
 * Per ASCII char of a word: its lower-case form shifted left 8, and its kind (W_*); 0 for any other
 * char. The scan's loop over a word's ASCII chars reads this one table for what it needs of each.
 */
export const WORD_CHAR = new Int32Array(128);
for (let c = 0; c < 128; c++) {
  const a = ASCII[c]!;
  if (a < A_WORD) continue;
  const kind = a === A_LOWER ? W_LOWER : a === A_UPPER ? W_UPPER : a === A_DIGIT ? W_DIGIT : W_UNDER;
  WORD_CHAR[c] = (LOWER[c]! << 8) | kind;
}
/** Chars that may join the digit groups of one number. */
export const SEPARATOR = new Uint8Array(128);
SEPARATOR[0x2e] = 1;
SEPARATOR[0x2c] = 1;
SEPARATOR[0x3a] = 1;

const lowerCache = new Uint32Array(0x10000);
/** The lower-case form of a BMP letter (the char itself when none or when it lower-cases to several chars). */
export function lowerOf(c: number): number {
  if (c >= 0x10000) return c;
  let l = lowerCache[c]!;
  if (l === 0) {
    const s = String.fromCharCode(c).toLowerCase();
    l = s.length === 1 ? s.charCodeAt(0) : c;
    lowerCache[c] = l;
  }
  return l;
}

/** An ASCII, Arabic-Indic or full-width digit. */
export function isDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x660 && c <= 0x669) || (c >= 0xff10 && c <= 0xff19);
}
