/**
 * Where the output repeats itself, as regions of tokens each of which repeats earlier output.
 *
 * One statistic explains loops, tail repeats, cycles and runaway lists: for each token, does
 * the K-gram of tokens ending at it occur earlier in the text? A region is a stretch of
 * tokens where it nearly always does (a gap of a changed word or two is bridged), so copies
 * that differ by a word, by line wrapping (whitespace is not a token) or by their order
 * (a cycle) are one region. For each region:
 * - copies = L / D + 1, where L is the region's tokens and D the K-grams in it whose earlier
 *   occurrence lies before the region (the material it copies): a loop of a P-token unit
 *   has D = P, a cycle over three paragraphs D = their length, a passage quoted once D = L
 *   (2 copies);
 * - period: the most common distance back to the earlier occurrence (the loop's unit),
 *   and how many tokens equal the token one period back (verbatim share);
 * - novel: the words of the region the text uses at most twice (in `rare`), per copy: a
 *   loop brings nothing new, a list of things in one template brings a name per copy.
 *
 * Tokens are read through `ids`: the caller maps rare words to one id (a template) or not
 * (verbatim). O(n) time, one hash table grown by need.
 */
import { K, MAX_PERIOD, measureRegion, type Region, WILD } from './measureRegion.js';

/** Non-repeating tokens bridged inside a region: one changed word breaks K K-grams. */
const GAP = K + 1;
/** Regions shorter than this are not measured. */
const MIN_TOKENS = 4;

/**
 * The lag of every token of `ids[lo, hi)`, and the last region of at least MIN_TOKENS tokens
 * (the one the end of the text is judged by), measured. `ids[i]` is the token id to compare
 * (WILD for a rare word); a K-gram made only of WILD ids never repeats. `info` (the tokens'
 * flags) says which tokens are words, for Region.words (all, when null). With `endSlack`, the
 * last region is measured only when it ends that many tokens or fewer before `hi` (else null):
 * a caller that reads it only then is spared measuring a region that may be most of the text.
 */
export function findRegions(ids: Int32Array, lo: number, hi: number, info: Int32Array | null = null, endSlack = Infinity): Regions {
  const n = hi - lo;
  if (n < K + 1) return { last: null, lag: new Int32Array(0), stretches: 0, bounds: BOUNDS };
  // open addressing, sized for as many K-grams as tokens (most texts have nearly that many; up to INITIAL_MAX) and grown
  // by need; a slot holds the K-gram's hash and then the token index + 1 of its last occurrence (0 for an empty slot),
  // side by side: one cache line per probe
  let size = 64;
  while (size < 2 * n && size < INITIAL_MAX) size <<= 1;
  let mask = size - 1;
  let which = 0;
  pooled(which, size);
  let table = TABLES[which]!;
  let used = 0;
  if (LAG.length < n) LAG = new Int32Array(n);
  const lag = LAG.subarray(0, n);
  lag.fill(0);
  let start = -1;
  let lastRep = -1;
  let reps = 0;
  // the last region so far: first token, end and repeated tokens (measured once the scan is done)
  let regionFrom = -1;
  let regionTo = -1;
  let regionReps = 0;
  // the periodic stretch so far (its first token, period and last token that came a period back) and those found
  let stretches = 0;
  let sFrom = -1;
  let sPeriod = 0;
  let sLast = -1;
  for (let i = lo + K - 1; i < hi; i++) {
    const a = ids[i - 2]!;
    const b = ids[i - 1]!;
    const c = ids[i]!;
    if (a === WILD && b === WILD && c === WILD) continue;
    let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ b, 0xc2b2ae35) ^ c;
    h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
    let slot = (h ^ (h >>> 13)) & mask;
    for (;;) {
      const at = table[2 * slot + 1]!;
      if (at === 0) {
        table[2 * slot] = h;
        table[2 * slot + 1] = i + 1;
        if (++used * 2 > size) {
          which ^= 1;
          pooled(which, size << 1);
          rehash(table, size, TABLES[which]!, size << 1);
          table = TABLES[which]!;
          size <<= 1;
          mask = size - 1;
        }
        break;
      }
      if (table[2 * slot] === h) {
        lag[i - lo] = i + 1 - at;
        table[2 * slot + 1] = i + 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (lag[i - lo] === 0) continue;
    if (start >= 0 && i - lastRep > GAP) {
      if (lastRep + 1 - start >= MIN_TOKENS) {
        regionFrom = start;
        regionTo = lastRep + 1;
        regionReps = reps;
      }
      start = -1;
    }
    if (start < 0) {
      start = i;
      reps = 0;
    }
    reps++;
    lastRep = i;
    // a passage met again far back is a quote or a cycle (the regions' business), no loop
    const l = lag[i - lo]!;
    if (l > MAX_PERIOD) continue;
    // the tokens since the stretch's last one had no lag: from GAP of them, the first that had none ended it
    if (sFrom >= 0 && i - sLast > GAP + 1) {
      if (sLast + 1 - sFrom >= MIN_TOKENS) stretches = pushed(stretches, sFrom, sLast + 1);
      sFrom = -1;
    }
    if (sFrom >= 0 && Math.abs(l - sPeriod) <= 2) sLast = i;
    else {
      // inside a loop every K-gram came exactly one period back: another distance ends the stretch
      if (sFrom >= 0 && sLast + 1 - sFrom >= MIN_TOKENS) stretches = pushed(stretches, sFrom, sLast + 1);
      sFrom = i;
      sPeriod = l;
      sLast = i;
    }
  }
  if (sFrom >= 0 && (sLast + 1 - sFrom >= MIN_TOKENS || hi - sLast <= GAP)) stretches = pushed(stretches, sFrom, sLast + 1);
  // the region that ends the text counts whatever its size: "configuration configuration configuration configuration"
  if (start >= 0 && (lastRep + 1 - start >= MIN_TOKENS || hi - lastRep <= GAP)) {
    regionFrom = start;
    regionTo = lastRep + 1;
    regionReps = reps;
  }
  const last = regionFrom < 0 || hi - regionTo > endSlack ? null : measureRegion(ids, lag, lo, regionFrom, regionTo, regionReps, info);
  return { last, lag, stretches, bounds: BOUNDS };
}

/**
 * findRegions' hash tables, two so that one is rehashed into the other, and its lags: scratch
 * shared by every call (the analyzer runs one at a time, and the lags are read only until the
 * next call), so that a call allocates nothing. A table's cells in use are cleared first.
 */
const TABLES = [new Int32Array(0), new Int32Array(0)];
const INITIAL_MAX = 1 << 16;
let LAG = new Int32Array(0);

/** Table k with `size` empty slots. */
function pooled(k: number, size: number): void {
  if (TABLES[k]!.length < 2 * size) TABLES[k] = new Int32Array(2 * size);
  else TABLES[k]!.fill(0, 0, 2 * size);
}

/** The entries of a table of `from` slots moved to an empty one of `size` slots (a power of two). */
function rehash(table: Int32Array, from: number, to: Int32Array, size: number): void {
  const mask = size - 1;
  for (let s = 0; s < from; s++) {
    const at = table[2 * s + 1]!;
    if (at === 0) continue;
    const h = table[2 * s]!;
    let slot = (h ^ (h >>> 13)) & mask;
    while (to[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    to[2 * slot] = h;
    to[2 * slot + 1] = at;
  }
}

/** findRegions' stretches, two bounds each: scratch shared by every call (valid until the next one; a text may have thousands). */
let BOUNDS = new Int32Array(256);

/** Stretch `count` [a, b) put in BOUNDS (grown by need); returns the stretches now held. */
function pushed(count: number, a: number, b: number): number {
  if (2 * count + 2 > BOUNDS.length) {
    const grown = new Int32Array(2 * BOUNDS.length + 64);
    grown.set(BOUNDS);
    BOUNDS = grown;
  }
  BOUNDS[2 * count] = a;
  BOUNDS[2 * count + 1] = b;
  return count + 1;
}

export interface Regions {
  /** The last region (null when none). */
  last: Region | null;
  /** Per token i (at i - lo): the distance back to the previous occurrence of the K-gram ending at it, 0 when none (scratch: valid until the next call). */
  lag: Int32Array;
  /**
   * The periodic stretches: tokens whose K-gram came one period back (two tokens either way, for a word inserted or
   * dropped), gaps of a changed word bridged. A loop is one; a region may hold a loop and then other repeats with other
   * distances (a passage quoted, a cycle). Stretch k is the tokens [bounds[2k], bounds[2k + 1]) (scratch, as `lag`).
   */
  stretches: number;
  bounds: Int32Array;
}
