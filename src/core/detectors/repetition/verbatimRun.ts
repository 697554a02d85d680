/**
 * How many copies of a P-token unit run back to back up to token `end`: walking back one
 * copy at a time, a copy counts while at most a fifth of its tokens differ from the token
 * one period earlier, and those only to tokens the later copies have (a word or two swapped
 * among a few, as near loops do): a copy that brings something new (a rare word, WILD, or a
 * token no later copy has) is not a copy but an item or the text before the loop. The run is
 * then extended token by token into a partial first copy.
 */
import { K, WILD } from './measureRegion.js';

export interface Run {
  /** First token of the run (the start of its first copy). */
  start: number;
  /** Copies, counting the first one and partial ones (a unit repeated 3.5 times is 3.5). */
  copies: number;
  /** Tokens equal to the token one period earlier, over the tokens compared. */
  similarity: number;
}

/** The differing tokens of the copy being compared: scratch shared by every call (each writes what it reads). */
let MISSES = new Int32Array(64);

/**
 * For one period P, how many tokens from i up to `top - P` differ from the token P later, and
 * how many are WILD and equal to it, counted back from `top` as far as a run has walked: runs
 * of that period that end at `top` or a few tokens before it (bestRun tries up to eight ends)
 * then read a copy's differences in one step, and walk its tokens only when it has some.
 */
export class PeriodCounts {
  /** Per token from lo: the counts from it to top - period (filled from `filled` on). */
  private readonly diff: Int32Array;
  private readonly wild: Int32Array;
  /** The tokens counted in either (they break a copy taken whole), in the order filled: the c-th from the top is dirty[c]. */
  private readonly dirty: Int32Array;
  private filled: number;
  private dirtyCount: number;

  constructor(
    readonly ids: Int32Array,
    readonly lo: number,
    readonly top: number,
    readonly period: number,
  ) {
    const size = top - lo + 1;
    if (DIFF.length < size) {
      DIFF = new Int32Array(size);
      WILDS = new Int32Array(size);
      DIRTY = new Int32Array(size);
    }
    this.diff = DIFF;
    this.wild = WILDS;
    this.dirty = DIRTY;
    this.filled = top - period;
    this.dirtyCount = 0;
    this.diff[this.filled - lo] = 0;
    this.wild[this.filled - lo] = 0;
  }

  /** Tokens of [a, b) that differ from the token a period later (b <= top - period). */
  differing(a: number, b: number): number {
    this.fill(a, -1);
    return this.diff[a - this.lo]! - this.diff[b - this.lo]!;
  }

  /** WILD tokens of [a, b) equal to the token a period later (after `differing` of the same or a lower a). */
  equalWild(a: number, b: number): number {
    return this.wild[a - this.lo]! - this.wild[b - this.lo]!;
  }

  /**
   * The lowest token from which [from, x) holds no token that `differing` or `equalWild` would
   * count (lo when none down to it), x counted already: the copies in it are all taken whole, so
   * a run steps over them at once rather than a copy at a time (a long loop has thousands).
   */
  cleanFrom(x: number): number {
    const before = this.diff[x - this.lo]! + this.wild[x - this.lo]!;
    // the counted tokens at x or after it are the first `before` filled: the next one filled is the first under x
    if (this.dirtyCount <= before) this.fill(this.lo, before);
    return this.dirtyCount > before ? this.dirty[before]! + 1 : this.lo;
  }

  /** Fills the counts down to token a, or until more than `enough` counted tokens are known (-1: to a whatever they are). */
  private fill(a: number, enough: number): void {
    const { ids, lo, period: p, diff, wild, dirty } = this;
    let i = this.filled;
    let count = this.dirtyCount;
    while (i > a && (enough < 0 || count <= enough)) {
      i--;
      const id = ids[i]!;
      const same = id === ids[i + p];
      const wildSame = same && id === WILD;
      diff[i - lo] = diff[i + 1 - lo]! + (same ? 0 : 1);
      wild[i - lo] = wild[i + 1 - lo]! + (wildSame ? 1 : 0);
      if (!same || wildSame) dirty[count++] = i;
    }
    this.filled = i;
    this.dirtyCount = count;
  }
}

/** The ids of a run's last copy, by id: the stamp of the run that marked them (one run reads them at a time). */
let KNOWN = new Int32Array(1024);
let knownStamp = 0;

/** PeriodCounts' arrays: one period is counted at a time (the analyzer runs one call at a time). */
let DIFF = new Int32Array(0);
let WILDS = new Int32Array(0);
let DIRTY = new Int32Array(0);

export function verbatimRun(
  ids: Int32Array,
  lo: number,
  end: number,
  period: number,
  isCounter: (i: number, period: number) => boolean = () => false,
  counts?: PeriodCounts,
): Run {
  const p = Math.max(1, period);
  // the counts serve when they are of this period and these tokens, and the run ends where they were counted from
  const c = counts && counts.ids === ids && counts.lo === lo && counts.period === p && end <= counts.top ? counts : null;
  const budget = Math.floor(p / 5);
  let at = end;
  let same = 0;
  let compared = 0;
  // the tokens of the last copy, built when a differing token is first asked about: a token equal to the one a period
  // later is one of them (the copies after it were all accepted, so each of their tokens is)
  let known = 0;
  let knownNegative: Set<number> | null = null;
  const isKnown = (id: number): boolean => {
    if (known === 0) {
      // the ids of the last copy marked with a stamp of this run in a table by id (negative ids, WILD, in a set)
      if (++knownStamp > 0x3fffffff) {
        KNOWN.fill(0);
        knownStamp = 1;
      }
      known = knownStamp;
      for (let i = Math.max(lo, end - p); i < end; i++) {
        const x = ids[i]!;
        if (x < 0) {
          knownNegative ??= new Set<number>();
          knownNegative.add(x);
        } else {
          if (x >= KNOWN.length) {
            const grown = new Int32Array(Math.max(x + 1, 2 * KNOWN.length));
            grown.set(KNOWN);
            KNOWN = grown;
          }
          KNOWN[x] = known;
        }
      }
    }
    return id < 0 ? (knownNegative?.has(id) ?? false) : id < KNOWN.length && KNOWN[id] === known;
  };
  if (MISSES.length < budget + 1) MISSES = new Int32Array(budget + 1);
  const misses = MISSES;
  // whole copies, newest first
  while (at - p - p >= lo) {
    if (c) {
      // too many differences end the run; a copy equal to the next with no WILD token in it is taken whole, unwalked
      const differing = c.differing(at - p - p, at - p);
      if (differing > budget) break;
      if (differing === 0 && c.equalWild(at - p - p, at - p) === 0) {
        // with the copies before it up to the next token that differs or is WILD: the walk would take each whole
        const whole = Math.floor((at - p - c.cleanFrom(at - p)) / p);
        same += whole * p;
        compared += whole * p;
        at -= whole * p;
        continue;
      }
    }
    let miss = 0;
    let fresh = false;
    for (let i = at - p - p; i < at - p && miss <= budget; i++) {
      const id = ids[i]!;
      if (id === ids[i + p]) {
        if (id === WILD && !isCounter(i + p, p)) fresh = true;
      } else misses[miss++] = i;
    }
    if (miss > budget) break;
    // the differing tokens: something new, or a word swapped among those of the loop
    for (let k = 0; k < miss && !fresh; k++) {
      const i = misses[k]!;
      const id = ids[i]!;
      if ((id === WILD || !isKnown(id)) && !isCounter(i + p, p)) fresh = true;
    }
    if (fresh) break;
    same += p - miss;
    compared += p;
    at -= p;
  }
  // a partial copy before them: exact tokens only
  while (at - 1 - p >= lo) {
    const id = ids[at - 1]!;
    if (id === WILD || id !== ids[at - 1 - p]) break;
    same++;
    compared++;
    at--;
  }
  const start = at - p;
  return { start, copies: (end - start) / p, similarity: compared === 0 ? 0 : same / compared };
}

/**
 * What the copies of a run bring that is new, per copy after the first: tokens after the first
 * period not seen before in the run (robust to a start a few tokens early), or distinct tokens
 * beyond those of the last copy (robust to a start a few tokens late), whichever is fewer.
 * A stuck model brings nothing (its variants come back, and a counter, "Step 12:", is no new
 * thing); a list in one template, data and declarations name a new thing in each item.
 */
export function newPerCopy(
  ids: Int32Array,
  start: number,
  end: number,
  period: number,
  isCounter: (i: number) => boolean = () => false,
): number {
  const copies = (end - start) / period;
  if (copies <= 1) return 0;
  const last = new Set<number>();
  for (let i = Math.max(start, end - period); i < end; i++) last.add(ids[i]!);
  const seen = new Set<number>();
  let fresh = 0;
  let beyondLast = 0;
  for (let i = start; i < end; i++) {
    const id = ids[i]!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (isCounter(i)) continue;
    if (i >= start + period) fresh++;
    if (!last.has(id)) beyondLast++;
  }
  return Math.min(fresh, beyondLast) / (copies - 1);
}

/**
 * Copies of a P-token unit back to back up to token `end`, each allowed to differ from the
 * copy before it by an inserted, dropped or swapped word of any length: walking back one copy
 * at a time, a copy counts while its tokens end 3-grams met about one period earlier (`lag`,
 * from findRegions: within a quarter of the period, two tokens at least) but for the K that
 * one edit breaks and a fifth of the copy besides (verbatimRun's budget; half of a short copy),
 * as each 3-gram of a copy is met in the copy before it, however far an edit shifted it.
 */
export function nearRun(lag: Int32Array, lo: number, end: number, period: number): Run {
  const p = Math.max(1, period);
  const slack = Math.max(2, p >> 2);
  const low = Math.max(1, p - slack);
  // half the copy at least, however short the unit
  const budget = Math.min(K + p / 5, p / 2);
  let at = end;
  let near = 0;
  let compared = 0;
  while (at - p - p >= lo) {
    let hits = 0;
    for (let i = at - p; i < at; i++) {
      const l = lag[i - lo]!;
      if (l >= low && l <= p + slack) hits++;
    }
    if (p - hits > budget) break;
    near += hits;
    compared += p;
    at -= p;
  }
  const start = at - p;
  return {
    start,
    copies: (end - start) / p,
    similarity: compared === 0 ? 0 : near / compared,
  };
}
