/**
 * The sums the window readings (windows.ts) judge: over a stretch of prose chunks, how many, their
 * weight, how many are malformed, glued, function words, followed by a break, code, spaced,
 * noisy, letterless, cased, single letters and pieces of words, and their letters per script.
 * A window is two half windows' sums joined, so each chunk is summed once however the windows slide.
 */
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import { mostWritten } from './writtenLetters.js';
import type { Chunks } from './chunks.js';

// Module-level copies of what the sums read per chunk: an imported binding is live, read through its module's cell
// each time, where a const of this module is not.
const { SC_CJK, SC_CYRILLIC, SC_HANGUL, SC_LATIN, SC_NONE, SC_THAI } = charClass;
const { C_AFTER, C_BREAK, C_CASED, C_CODEISH, C_DIGITS, C_FUNC, C_GAP, C_GLUE, C_MALFORMED, C_NONASCII, C_SEQUENCE } = chunks;

/** A chunk weighs its letters, up to this many: words glued into one 1,000-letter chunk count as many words, not one. */
export const WEIGHT_CAP = 100;

/** Sums over a stretch of chunks: their offsets in an Int32Array of SUMS (SCRIPTS: letters per script, 16 of them). */
export const S = {
  N: 0,
  WEIGHT: 1,
  MALFORMED: 2,
  /** Weight of chunks gluing two scripts (their own not one that glues Latin terms), and of those malformed besides. */
  GLUED: 3,
  GLUED_MALFORMED: 4,
  FUNC: 5,
  BREAKS: 6,
  CODEISH: 7,
  SPACED: 8,
  NOISY: 9,
  LETTERLESS: 10,
  /** The first chunk of the stretch. */
  FROM: 11,
  CASED: 12,
  /** Chunks of one lower-case Latin or Cyrillic letter and no code ("t", "h,"): a word spelt letter by letter. */
  SINGLE: 13,
  /** Chunks of two or three lower-case ASCII letters that are no function word and no code ("ng", "ome"): a piece of a word. */
  SHORT: 14,
  /** The scripts the stretch has letters of, one bit each: only their counts are read, added and cleared. */
  MASK: 15,
  SCRIPTS: 16,
} as const;
/** Numbers in a stretch's sums. */
export const SUMS = S.SCRIPTS + 16;

/** The bit of each flag counted in chunkSums. */
const BIT_BREAK = 31 - Math.clz32(C_BREAK);
const BIT_GAP = 31 - Math.clz32(C_GAP);
const BIT_FUNC = 31 - Math.clz32(C_FUNC);
const BIT_CASED = 31 - Math.clz32(C_CASED);
const BIT_CODEISH = 31 - Math.clz32(C_CODEISH);
/**
 * The scripts whose chunks of one letter are counted as single letters: alphabets written with
 * spaces and with cases (a capital letter alone is a list marker, an answer or an initial). The
 * one-letter words of languages (English a and i, Spanish y and o, Polish w and z, Russian в
 * and и) are counted too: left out, they took text spelt letter by letter down to 0.5-0.7 of a
 * window, where healthy text reaches 0.25-0.375 with them in.
 */
const SINGLE_SCRIPTS = (1 << SC_LATIN) | (1 << SC_CYRILLIC);
/**
 * The flags that keep a chunk of one letter from being a single letter: a capital or a digit,
 * code punctuation, opening an item or a cell ("1. a", "| x |": an answer key, a table of units),
 * or a number beside it ("2024-01-3,m-0,0.3": a row of data).
 */
const NOT_SINGLE = C_CASED | C_CODEISH | C_AFTER | C_DIGITS | C_SEQUENCE;
/**
 * The flags that keep a chunk of two or three letters from being a piece of a word: those of
 * NOT_SINGLE, a function word, or a letter past ASCII. Vietnamese writes its syllables apart, most
 * of two or three letters with their marks ("để", "tập", "sớm"): its prose read 0.67 of a window
 * with them counted; pieces cut from English words are plain ASCII.
 */
const NOT_SHORT = NOT_SINGLE | C_FUNC | C_NONASCII;
/** The scripts that glue Latin terms to their words (gluesLatin), one bit each. */
const GLUES_LATIN = (1 << SC_CJK) | (1 << SC_HANGUL) | (1 << SC_THAI);

/** The sums of the chunks [a, b), written into `w` (its scripts zeroed by the caller: see clearScripts), which it returns. */
export function chunkSums(c: Chunks, a: number, b: number, w: Int32Array): Int32Array {
  let weight = 0;
  let malformed = 0;
  let glued = 0;
  let gluedMalformed = 0;
  let func = 0;
  let breaks = 0;
  let codeish = 0;
  let spaced = 0;
  let noisy = 0;
  let letterless = 0;
  let cased = 0;
  let single = 0;
  let short = 0;
  // the chunks' arrays in locals: the loop reads them at every chunk
  const { flags, script, noise, scriptLetters, letters } = c;
  // the letters of the stretch's first script are summed in a local, those of any other in `w`: most stretches are of one
  // script, and a sum kept in the array made each chunk wait on the one before it
  let first = -1;
  let firstLetters = 0;
  let mask = 0;
  for (let i = a; i < b; i++) {
    const fl = flags[i]!;
    const s = script[i]!;
    const ns = noise[i]!;
    if (s === first) firstLetters += scriptLetters[i]!;
    else if (first < 0) {
      first = s;
      firstLetters = scriptLetters[i]!;
    } else {
      w[S.SCRIPTS + s] = w[S.SCRIPTS + s]! + scriptLetters[i]!;
      mask |= 1 << s;
    }
    // counted by the flag's bit, not by a branch: whether a chunk has a break, a function word, a capital or code
    // punctuation is as good as random to the processor
    const codeBit = (fl >> BIT_CODEISH) & 1;
    noisy += (ns & ~codeBit & 1) + (ns >> 1);
    letterless += ns >> 1;
    const wt = Math.min(letters[i]!, WEIGHT_CAP);
    weight += wt;
    codeish += wt & -codeBit;
    // a gap between columns parts cells as a break parts clauses
    breaks += ((fl >> BIT_BREAK) | (fl >> BIT_GAP)) & 1;
    func += (fl >> BIT_FUNC) & 1;
    cased += (fl >> BIT_CASED) & 1;
    // a branch taken rarely in prose: a chunk of one letter is "a" or "I" now and then
    if (letters[i] === 1 && (SINGLE_SCRIPTS >> s) & 1 && !(fl & NOT_SINGLE)) single++;
    else if (letters[i]! <= 3 && letters[i]! > 1 && (SINGLE_SCRIPTS >> s) & 1 && !(fl & NOT_SHORT)) short++;
    const own = (GLUES_LATIN >> s) & 1;
    spaced += own ^ 1;
    if (fl & C_GLUE && !own) {
      glued += wt;
      if (fl & C_MALFORMED) gluedMalformed += wt;
    } else if (fl & C_MALFORMED) malformed += wt;
  }
  if (first >= 0) {
    w[S.SCRIPTS + first] = w[S.SCRIPTS + first]! + firstLetters;
    mask |= 1 << first;
  }
  w[S.MASK] = mask;
  w[S.N] = b - a;
  w[S.WEIGHT] = weight;
  w[S.MALFORMED] = malformed;
  w[S.GLUED] = glued;
  w[S.GLUED_MALFORMED] = gluedMalformed;
  w[S.FUNC] = func;
  w[S.BREAKS] = breaks;
  w[S.CODEISH] = codeish;
  w[S.SPACED] = spaced;
  w[S.NOISY] = noisy;
  w[S.LETTERLESS] = letterless;
  w[S.FROM] = a;
  w[S.CASED] = cased;
  w[S.SINGLE] = single;
  w[S.SHORT] = short;
  return w;
}

/**
 * The script most of the sums' letters are in, each count as the letters it writes (writtenLetters.ts), read in place:
 * no view made per window.
 * Only the scripts of the mask have letters, and a count of none never wins: most windows are of one script.
 */
export function dominantScript(w: Int32Array): number {
  const mask = w[S.MASK]!;
  if ((mask & (mask - 1)) === 0) return mask === 0 ? SC_NONE : 31 - Math.clz32(mask);
  return mostWritten(w, S.SCRIPTS, mask);
}

/** The script counts of `w` zeroed (those of its mask: the others are zero already), ready for chunkSums. */
export function clearScripts(w: Int32Array): Int32Array {
  for (let mask = w[S.MASK]!; mask !== 0; mask &= mask - 1) w[S.SCRIPTS + 31 - Math.clz32(mask & -mask)] = 0;
  w[S.MASK] = 0;
  return w;
}

/** `into` made the sums of two stretches, `x` and the one after it `y`: the plain sums added, then the counts of their scripts. */
export function joinSums(into: Int32Array, x: Int32Array, y: Int32Array): Int32Array {
  clearScripts(into);
  for (let k = 0; k < S.MASK; k++) into[k] = x[k]! + y[k]!;
  into[S.MASK] = x[S.MASK]! | y[S.MASK]!;
  for (let m = x[S.MASK]!; m !== 0; m &= m - 1) {
    const at = S.SCRIPTS + 31 - Math.clz32(m & -m);
    into[at] = x[at]!;
  }
  for (let m = y[S.MASK]!; m !== 0; m &= m - 1) {
    const at = S.SCRIPTS + 31 - Math.clz32(m & -m);
    into[at] = into[at]! + y[at]!;
  }
  into[S.FROM] = x[S.FROM]!;
  return into;
}
