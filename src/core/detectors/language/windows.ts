/**
 * The window readings: prose chunks read 24 at a time, windows sliding by half, each judged
 * for the share of malformed chunks (gibberish), of punctuation where no language puts it
 * (noise), of single letters (text spelt letter by letter), of function words (soup) and for
 * word salad (few function words, few breaks).
 * Code and data in a window are judged apart: their chunks are not the writer's words.
 */
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as salad from './salad.js';
import type { SaladPoint } from './salad.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { SC_CJK, SC_CYRILLIC, SC_HANGUL, SC_LATIN, SC_NONE, SC_THAI } = charClass;
const { C_AFTER, C_BREAK, C_CASED, C_CODEISH, C_DIGITS, C_FUNC, C_GLUE, C_MALFORMED, C_NONASCII } = chunks;
const { addSaladPoint } = salad;
const { gluesLatin } = shapes;

/** A chunk weighs its letters, up to this many: words glued into one 1,000-letter chunk count as many words, not one. */
const WEIGHT_CAP = 100;
/**
 * Letters of prose chunks in a window of code or data from which they are judged apart: no
 * healthy reading has a malformed one in such a window (none in the 280 readings of the real
 * files that have such a window, whole and cut; model outputs keep their code in blocks), so
 * the floor only keeps one long identifier in a comment (up to WEIGHT_CAP letters) from being
 * half of the prose judged.
 */
const PROSE_IN_CODE = 2 * WEIGHT_CAP;
/**
 * Share of a window's letters in chunks with code punctuation from which the window is code or
 * data: only scripts glued, and the prose between the code, are judged there.
 */
const CODE_WINDOW = 0.3;
/** Share of a window's chunks in spaced scripts from which it is read for word salad and soup (CJK and Thai write words together). */
const SPACED_WINDOW = 0.8;
/** Prose chunks per window; windows slide by half of it. */
const WINDOW = 24;
/** Fewest chunks judged for gibberish: a whole output of one glued word of 25+ letters is judged too. */
const MIN_CHUNKS = 1;
/** Fewest chunks judged for punctuation noise. */
const NOISE_MIN_CHUNKS = 8;
/** Share of a window's chunks with a break after them under which it is judged for function-word soup: a list of stop words is not. */
const SOUP_BREAKS = 0.25;
/** Fewest chunks judged for word salad. */
const SALAD_MIN_CHUNKS = 6;
/**
 * Share of a window's chunks with a capital (or a digit) from which it is a title or a string
 * of names, not word salad: a product title is keywords by design ("Journal Planner Pens Colored
 * Pens Fine Point Markers..."). Of the windows that read as salad in the three real corpora and
 * the healthy set, the collapses reach 0.75 (one at 1.0 is a single word looped, which the
 * repetition reading fails) and the one healthy window 0.96.
 */
const TITLE_CASE_SHARE = 0.9;

export interface WindowFigures {
  /** Windows judged, and the worst one for each reading: its share and where it starts (-1 when none). */
  windows: number;
  malformed: number;
  malformedAt: number;
  /** The highest share of chunks with punctuation where no language puts it, among windows of prose, and where. */
  noise: number;
  noiseAt: number;
  /** The highest share of chunks that are one lower-case Latin or Cyrillic letter, among full windows of prose, and where. */
  singleLetters: number;
  singleLettersAt: number;
  /**
   * The highest share of chunks of two or three lower-case ASCII letters that are no function word ("ng",
   * "ome"), among full windows of spaced prose with few breaks, and where: words cut into pieces.
   */
  shortPieces: number;
  shortPiecesAt: number;
  /** The highest share of function words among full windows of spaced prose with few breaks, and where. */
  func: number;
  funcAt: number;
  /**
   * Windows of Latin or Cyrillic prose that no other window beats on both counts (fewer function words and
   * fewer breaks), by break share rising, function-word share falling: the judge reads the one with the fewest
   * function words under its saladBreakShare, whatever that threshold is set to.
   */
  salad: SaladPoint[];
}

/** Sums over a stretch of chunks: their offsets in an Int32Array of SUMS (SCRIPTS: letters per script, 16 of them). */
const S = {
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
const SUMS = S.SCRIPTS + 16;
/** The sums of the half window read, of the one before and of the window they make: shared by every call (one runs at a time, and clears what it reads first). */
const SUMS_NEXT = new Int32Array(SUMS);
const SUMS_PREV = new Int32Array(SUMS);
const SUMS_WINDOW = new Int32Array(SUMS);

/** The bit of each flag counted in chunkSums. */
const BIT_BREAK = 31 - Math.clz32(C_BREAK);
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
const NOT_SINGLE = C_CASED | C_CODEISH | C_AFTER | C_DIGITS;
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
function chunkSums(c: Chunks, a: number, b: number, w: Int32Array): Int32Array {
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
    breaks += (fl >> BIT_BREAK) & 1;
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
 * The script most of the sums' letters are in (as dominant() reads them, read in place: no view made per window).
 * Only the scripts of the mask have letters, and a count of none never wins: most windows are of one script.
 */
function dominantScript(w: Int32Array): number {
  let mask = w[S.MASK]!;
  if ((mask & (mask - 1)) === 0) return mask === 0 ? SC_NONE : 31 - Math.clz32(mask);
  let best = SC_NONE;
  for (; mask !== 0; mask &= mask - 1) {
    const s = 31 - Math.clz32(mask & -mask);
    if (w[S.SCRIPTS + s]! > w[S.SCRIPTS + best]!) best = s;
  }
  return best;
}

/** The script counts of `w` zeroed (those of its mask: the others are zero already), ready for chunkSums. */
function clearScripts(w: Int32Array): Int32Array {
  for (let mask = w[S.MASK]!; mask !== 0; mask &= mask - 1) w[S.SCRIPTS + 31 - Math.clz32(mask & -mask)] = 0;
  w[S.MASK] = 0;
  return w;
}

/** `into` made the sums of two stretches, `x` and the one after it `y`: the plain sums added, then the counts of their scripts. */
function joinSums(into: Int32Array, x: Int32Array, y: Int32Array): Int32Array {
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

/** The window readings of a text's chunks (malformed share, punctuation noise, single letters, function-word soup, word salad) and whether a window holds Chinese. */
export function readWindows(c: Chunks): WindowFigures & { cjk: boolean } {
  const f = {
    windows: 0,
    malformed: 0,
    malformedAt: -1,
    noise: 0,
    noiseAt: -1,
    singleLetters: 0,
    singleLettersAt: -1,
    shortPieces: 0,
    shortPiecesAt: -1,
    func: 0,
    funcAt: -1,
    salad: [] as SaladPoint[],
    cjk: false,
  };
  const sums = SUMS_NEXT;
  const judgeWindow = (w: Int32Array) => {
    const n = w[S.N]!;
    const weight = w[S.WEIGHT]!;
    let malformed = w[S.MALFORMED]!;
    let glued = w[S.GLUED]!;
    const func = w[S.FUNC]!;
    const breaks = w[S.BREAKS]!;
    const spaced = w[S.SPACED]!;
    const noisy = w[S.NOISY]!;
    const letterless = w[S.LETTERLESS]!;
    if (w[S.SCRIPTS + SC_CJK]! > 0) f.cjk = true;
    // letters of two scripts glued are normal where the window's prose is in a script that glues Latin terms
    if (gluesLatin(dominantScript(w))) {
      malformed += w[S.GLUED_MALFORMED]!;
      glued = 0;
    } else malformed += glued;
    f.windows++;
    // code and data: their chunks are not the writer's words, but letters of two scripts glued are no code either, and
    // the words between them are prose (words run together inside a JSON string left open)
    const code = w[S.CODEISH]! >= CODE_WINDOW * weight;
    const prose = weight - w[S.CODEISH]!;
    const share = code ? Math.max(glued / weight, prose >= PROSE_IN_CODE ? w[S.MALFORMED]! / prose : 0) : malformed / weight;
    const at = c.start[w[S.FROM]!]!;
    if (!code && n >= NOISE_MIN_CHUNKS && noisy / (n + letterless) > f.noise) {
      f.noise = noisy / (n + letterless);
      f.noiseAt = at;
    }
    // full windows only: a short output of a few letters ("x y z") is no text spelt out
    if (!code && n === WINDOW && w[S.SINGLE]! / n > f.singleLetters) {
      f.singleLetters = w[S.SINGLE]! / n;
      f.singleLettersAt = at;
    }
    if (share > f.malformed) {
      f.malformed = share;
      f.malformedAt = at;
    }
    if (!code && spaced >= SPACED_WINDOW * n && n === WINDOW && breaks <= SOUP_BREAKS * n) {
      if (func / n > f.func) {
        f.func = func / n;
        f.funcAt = at;
      }
      if (w[S.SHORT]! / n > f.shortPieces) {
        f.shortPieces = w[S.SHORT]! / n;
        f.shortPiecesAt = at;
      }
    }
    if (!code && spaced >= SPACED_WINDOW * n && n >= SALAD_MIN_CHUNKS && w[S.CASED]! < TITLE_CASE_SHARE * n) {
      const fs = func / n;
      const bs = breaks / n;
      addSaladPoint(f.salad, fs, bs, at);
    }
  };
  if (c.n < WINDOW) {
    if (c.n >= MIN_CHUNKS) judgeWindow(chunkSums(c, 0, c.n, clearScripts(sums)));
  } else {
    // the windows overlap by half: each half is summed once, a window is two halves (the half read last is the first
    // half of the next window: the two buffers trade places)
    const half = WINDOW / 2;
    let prev = SUMS_PREV;
    let next = sums;
    chunkSums(c, 0, half, clearScripts(prev));
    let a = 0;
    for (; a + WINDOW <= c.n; a += half) {
      chunkSums(c, a + half, a + WINDOW, clearScripts(next));
      judgeWindow(joinSums(SUMS_WINDOW, prev, next));
      const read = prev;
      prev = next;
      next = read;
    }
    // the end of the text is a window too, however the windows fell
    if (a - half + WINDOW < c.n) judgeWindow(chunkSums(c, c.n - WINDOW, c.n, clearScripts(next)));
  }
  return f;
}
