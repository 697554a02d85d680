/**
 * The normalised chars of a text's end, read once per analysis and shared by the two readings
 * that count on them (replayed.ts over the last TAIL_WINDOW chars, normalisedCopies.ts over the
 * last 12 KB of those): whitespace dropped, each run of digits one mark (0x30), letters case
 * folded where folding keeps each char one char (it does for nearly every script; else the
 * window is read as written). Each normalised char keeps the index in the text where it starts
 * (a run of digits at its first digit).
 *
 * A reading of a shorter window inside this one gets the same chars as if it had folded and
 * read that window alone, but at the window's start: a run of digits cut there, a surrogate pair
 * cut there, and a capital sigma whose fold (σ or ς) looks back past it. `within` handles the
 * first and says when the other two make the shared view inexact, so the reading folds its
 * window itself.
 */

import { utf16Units } from '../../text/utf16Units.js';

export interface NormalisedTail {
  /** The text read (a text's end, from char `offset` of the whole text on). */
  text: string;
  offset: number;
  /** Where in `text` the window starts. */
  from: number;
  /** text.slice(from) case folded, or as written when folding changes its length. */
  folded: string;
  /** Folding kept each char one char. */
  lowered: boolean;
  /** The normalised chars, and the index in `text` of each. */
  norm: Int32Array;
  at: Int32Array;
  m: number;
}

/** Chars of the text read back from its end: replayed.ts's window, which holds normalisedCopies.ts's. */
export const TAIL_WINDOW = 65_536;

export function isSpace(c: number): boolean {
  // most chars are neither control nor space nor above 0x9f: one compare each way tells them
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c >= 0xa0 && (c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200b) || c === 0xfeff);
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Per UTF-16 unit: 0 a space (dropped), 2 a digit, 1 any other char. */
const KIND = new Uint8Array(0x10000).fill(1);
for (let c = 0; c < 0x10000; c++) if (isSpace(c)) KIND[c] = 0;
for (let c = 0x30; c <= 0x39; c++) KIND[c] = 2;

/** Scratch arrays of the view of the analysis (the analyzer runs one at a time); a view writes the cells it reads. */
let NORM = new Int32Array(0);
let AT = new Int32Array(0);

/**
 * The normalised view of the last `window` chars of `text`. `own` gives the view arrays of its
 * own rather than the shared scratch (for a reading that cannot use the view of the analysis
 * and must not overwrite it).
 */
export function normalisedTail(text: string, offset = 0, window = TAIL_WINDOW, own = false): NormalisedTail {
  const from = Math.max(0, text.length - window);
  const raw = text.slice(from);
  const lower = raw.toLowerCase();
  const lowered = lower.length === raw.length;
  const folded = lowered ? lower : raw;
  const n = folded.length;
  let norm: Int32Array;
  let at: Int32Array;
  if (own) {
    norm = new Int32Array(n);
    at = new Int32Array(n);
  } else {
    if (NORM.length < n) {
      NORM = new Int32Array(n);
      AT = new Int32Array(n);
    }
    norm = NORM;
    at = AT;
  }
  const units = utf16Units(folded);
  // each char is written where the next normalised one goes and kept by moving past it or not: no branch on the char,
  // whose kind (a space every few letters, a digit now and then) the processor cannot guess
  let m = 0;
  let digitBefore = 0;
  for (let i = 0; i < n; i++) {
    const c = units[i]!;
    const kind = KIND[c]!;
    const digit = kind >> 1;
    // kept unless a space, or a digit after a digit (a run of digits is one mark at its first digit: a scene numbered
    // 3 and one numbered 12 read the same)
    const keep = (kind & 1) | (digit & (digitBefore ^ 1));
    at[m] = from + i;
    norm[m] = c ^ ((c ^ 0x30) & -digit);
    m += keep;
    digitBefore = digit;
  }
  return { text, offset, from, folded, lowered, norm, at, m };
}

/** Chars that are not case-ignorable, so a sigma's look back stops at them: letters (modifier letters aside), numbers, spaces. */
const STOPS = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}\p{N}\p{Z}]/u;
/** Chars read for such a stop before the view is given up as inexact. */
const STOP_READ = 64;

/**
 * The first normalised char of the window of `tail.text` that starts at char `start`, as a
 * reading of that window alone would have it, or -1 when the shared view cannot give that
 * window's chars exactly. A run of digits cut at `start` is one mark there too; its index is
 * then moved to `start` by the caller (`cutRun`).
 */
export function within(tail: NormalisedTail, start: number): { first: number; cutRun: boolean } | null {
  if (start < tail.from || !tail.lowered) return null;
  if (start === tail.from) return { first: 0, cutRun: false };
  const s = tail.text;
  const c0 = s.charCodeAt(start);
  // a low surrogate cut from its high one is folded alone in the window, as a pair in the view
  if (c0 >= 0xdc00 && c0 <= 0xdfff && isHigh(s.charCodeAt(start - 1))) return null;
  // a capital sigma folds to ς after a cased letter (case-ignorable chars skipped): near the window's start, that
  // letter may lie before it; any other letter, number or space stops the look back inside the window
  for (let i = start, top = Math.min(s.length, start + STOP_READ); ; i++) {
    if (i === top) {
      if (top === s.length) break;
      return null;
    }
    const c = s.charCodeAt(i);
    if (c === 0x3a3) return null;
    if (c < 0x80) {
      if (c <= 0x20 || isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) break;
    } else if (STOPS.test(String.fromCharCode(c))) break;
  }
  // the first normalised char at or after start (the chars are in text order)
  const at = tail.at;
  let lo = 0;
  let hi = tail.m;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  const cutRun = isDigit(s.charCodeAt(start)) && isDigit(s.charCodeAt(start - 1));
  return { first: cutRun ? lo - 1 : lo, cutRun };
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
