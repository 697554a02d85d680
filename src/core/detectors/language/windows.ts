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
import * as windowSums from './windowSums.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { SC_CJK, SC_CYRILLIC, SC_LATIN } = charClass;
const { C_GLUE, C_LONG } = chunks;
const { addSaladPoint } = salad;
const { gluesLatin } = shapes;
const { chunkSums, clearScripts, dominantScript, joinSums, S, SUMS, WEIGHT_CAP } = windowSums;

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
  /**
   * The part of the worst window's malformed share that is long lower-case words alone (C_LONG), when it is a window of
   * prose: words run together, or the compounds of a language that writes them as one word (figures.ts asks which).
   */
  malformedLong: number;
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

/** The sums of the half window read, of the one before and of the window they make: shared by every call (one runs at a time, and clears what it reads first). */
const SUMS_NEXT = new Int32Array(SUMS);
const SUMS_PREV = new Int32Array(SUMS);
const SUMS_WINDOW = new Int32Array(SUMS);

/** The window readings of a text's chunks (malformed share, punctuation noise, single letters, function-word soup, word salad) and whether a window holds Chinese. */
export function readWindows(c: Chunks): WindowFigures & { cjk: boolean } {
  const f = {
    windows: 0,
    malformed: 0,
    malformedAt: -1,
    malformedLong: 0,
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
  // the chunks of the worst window for the malformed share, and its weight (worstFrom -1: not a window of prose)
  let worstFrom = -1;
  let worstTo = -1;
  let worstWeight = 0;
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
    const script = dominantScript(w);
    if (gluesLatin(script)) {
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
      // a window of prose whose malformed chunks include long words: its chunks are read again for them, once the worst
      // window is known
      worstFrom = !code && malformed > 0 ? w[S.FROM]! : -1;
      worstTo = worstFrom + n;
      worstWeight = weight;
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
    // the function-word lists are of languages written in Latin or Cyrillic letters: a window in another script has
    // none of their words whatever it says (Uyghur, Yiddish, Georgian, Greek), so it is not read for salad
    if (
      !code &&
      (script === SC_LATIN || script === SC_CYRILLIC) &&
      spaced >= SPACED_WINDOW * n &&
      n >= SALAD_MIN_CHUNKS &&
      w[S.CASED]! < TITLE_CASE_SHARE * n
    ) {
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
  if (worstFrom >= 0) f.malformedLong = longWeight(c, worstFrom, worstTo) / worstWeight;
  return f;
}

/** The weight of the chunks [from, to) that are malformed as long lower-case words alone (C_LONG, no letters of two scripts glued). */
function longWeight(c: Chunks, from: number, to: number): number {
  let weight = 0;
  for (let i = from; i < to; i++) if ((c.flags[i]! & (C_LONG | C_GLUE)) === C_LONG) weight += Math.min(c.letters[i]!, WEIGHT_CAP);
  return weight;
}
