/**
 * Word n-gram repetition fractions in the style of the Gopher / datatrove quality
 * filters, computed over a bounded list of words (the engine passes the last 2048):
 *  - top n-gram char fraction (n = 2, 3, 4): chars covered by the most frequent n-gram,
 *    counting every occurrence, over the chars of all words;
 *  - duplicate n-gram char fraction (n = 5..10): chars of words inside an n-gram that
 *    already occurred earlier (scanning left to right and skipping past each duplicate,
 *    so no word is counted twice for one n), over the chars of all words.
 * Healthy prose stays under ~0.1 for top-2 and near 0 for dup-10; loops approach 1.
 */
export interface NgramFractions {
  /** Index 0..2 for n = 2, 3, 4 (NaN for 3 and 4 when only the reported ones were asked for). */
  top: number[];
  /** Index 0..5 for n = 5..10 (NaN for 5..9 when only the reported ones were asked for). */
  dup: number[];
}

/**
 * Which fractions a call computes: all nine (the learned score reads every one), or the two an
 * analysis reports (top 2-gram, duplicate 10-gram), which skips seven of the nine counting passes
 * and the hashes of the 3- to 9-grams.
 */
export type NgramsWanted = 'all' | 'reported';

/** One word more into a hash of the words before it (a left fold: the n-gram's hash from the (n-1)-gram's). */
function step(h: number, id: number): number {
  return Math.imul(h ^ id, 0x01000193) ^ (h >>> 13);
}

/** hashes[i] becomes the hash of the n-gram at i, from that of the (n-1)-gram (for n = 1, from nothing). */
function growHashes(hashes: Int32Array, ids: Int32Array, count: number, n: number): void {
  for (let i = 0; i + n <= count; i++) hashes[i] = step(n === 1 ? 0x811c9dc5 | 0 : hashes[i]!, ids[i + n - 1]!);
}

/**
 * A reusable open-addressing table of 32-bit hashes to counts, each slot two ints side by side:
 * the hash, and the pass that wrote the slot (high bits) with the count (low COUNT_BITS). A slot
 * of another pass is free, so starting a new pass costs nothing (no clearing). A call uses the
 * first slots only, twice its words rounded up to a power of two, so a short text's table stays
 * in the cache; which slot a hash lands in changes no count.
 */
const BITS = 12;
const SIZE = 1 << BITS;
/** Bits of a count: a pass counts at most SIZE / 2 n-grams. */
const COUNT_BITS = 12;
const COUNT_MASK = (1 << COUNT_BITS) - 1;
/** Passes before the stamps start over (the table cleared): a stamp shifted by COUNT_BITS stays a positive int. */
const LAST_PASS = (1 << (31 - COUNT_BITS)) - 1;
const TABLE = new Int32Array(SIZE * 2);
let pass = 0;
/** The slots of this call's table, less one (a mask), and how far a hash is shifted onto its low bits. */
let mask = SIZE - 1;
let shift = BITS;

function newPass(): void {
  pass++;
  if (pass > LAST_PASS) {
    TABLE.fill(0);
    pass = 1;
  }
}

/** Adds one to the count of h and returns its slot's index in TABLE (the count is TABLE[at + 1] & COUNT_MASK). */
function bumpSlot(h: number): number {
  let i = (h ^ (h >>> shift)) & mask;
  for (;;) {
    const at = i << 1;
    const v = TABLE[at + 1]!;
    if (v >>> COUNT_BITS !== pass) {
      TABLE[at] = h;
      TABLE[at + 1] = (pass << COUNT_BITS) | 1;
      return at;
    }
    if (TABLE[at] === h) {
      TABLE[at + 1] = v + 1;
      return at;
    }
    i = (i + 1) & mask;
  }
}

/** Adds one to the count of h and returns the new count. */
function bump(h: number): number {
  return TABLE[bumpSlot(h) + 1]! & COUNT_MASK;
}

/** Word-length prefix sums and n-gram hashes of the words, shared by every call (one runs at a time). */
const PRE = new Float64Array(SIZE / 2 + 1);
const HASHES = new Int32Array(SIZE / 2);
/** Per word: the slot of the 2-gram it starts, then how many 2-grams in a row from it on came twice or more. */
const SLOTS = new Int32Array(SIZE / 2);
const AGAIN = new Int32Array(SIZE / 2 + 1);

export function ngramFractions(ids: Int32Array, lens: Int32Array, count: number, wanted: NgramsWanted = 'all'): NgramFractions {
  if (count > SIZE / 2) throw new RangeError(`at most ${SIZE / 2} words`);
  let total = 0;
  for (let i = 0; i < count; i++) total += lens[i]!;
  if (total === 0)
    return wanted === 'all' ? { top: [0, 0, 0], dup: [0, 0, 0, 0, 0, 0] } : { top: [0, NaN, NaN], dup: [NaN, NaN, NaN, NaN, NaN, 0] };
  // twice the words in slots, 16 at least: the table is never more than half full
  shift = Math.max(4, 32 - Math.clz32(2 * count - 1));
  mask = (1 << shift) - 1;
  // prefix sums of word lengths: chars of words [i, i+n) = pre[i+n] - pre[i]
  const pre = PRE;
  pre[0] = 0;
  for (let i = 0; i < count; i++) pre[i + 1] = pre[i]! + lens[i]!;
  const hashes = HASHES;
  growHashes(hashes, ids, count, 1);
  const top = [topPairs(ids, count, total)];
  if (wanted === 'reported') return { top: [top[0]!, NaN, NaN], dup: [NaN, NaN, NaN, NaN, NaN, dupTens(ids, count, total, 2)] };
  for (let n = 3; n <= 4; n++) {
    newPass();
    let best = 0;
    let bestAt = -1;
    // each n-gram's hash grown from the (n-1)-gram's and counted in one pass
    for (let i = 0; i + n <= count; i++) {
      const h = step(hashes[i]!, ids[i + n - 1]!);
      hashes[i] = h;
      const c = bump(h);
      if (c > best) {
        best = c;
        bestAt = i;
      }
    }
    top.push(bestAt < 0 || best < 2 ? 0 : Math.min(1, (best * (pre[bestAt + n]! - pre[bestAt]!)) / total));
  }
  const dup: number[] = [];
  for (let n = 5; n < 10; n++) {
    newPass();
    let dupChars = 0;
    let i = 0;
    // each n-gram's hash grown from the (n-1)-gram's as the scan reaches it, those it skips past too (the next n needs them)
    while (i + n <= count) {
      const h = step(hashes[i]!, ids[i + n - 1]!);
      hashes[i] = h;
      if (bump(h) > 1) {
        dupChars += pre[i + n]! - pre[i]!;
        const to = Math.min(i + n, count - n + 1);
        for (let j = i + 1; j < to; j++) hashes[j] = step(hashes[j]!, ids[j + n - 1]!);
        i += n;
      } else i++;
    }
    dup.push(dupChars / total);
  }
  dup.push(dupTens(ids, count, total, 9));
  return { top, dup };
}

/**
 * The top 2-gram fraction (HASHES holding the 1-gram hashes, which become the 2-grams'), and in
 * AGAIN, per word, how many 2-grams in a row from it on came twice or more.
 */
function topPairs(ids: Int32Array, count: number, total: number): number {
  const hashes = HASHES;
  newPass();
  let best = 0;
  let bestAt = -1;
  for (let i = 0; i + 2 <= count; i++) {
    const h = step(hashes[i]!, ids[i + 1]!);
    hashes[i] = h;
    const at = bumpSlot(h);
    SLOTS[i] = at;
    const c = TABLE[at + 1]! & COUNT_MASK;
    if (c > best) {
      best = c;
      bestAt = i;
    }
  }
  // read before the next pass frees the slots
  AGAIN[Math.max(0, count - 1)] = 0;
  for (let i = count - 2; i >= 0; i--) AGAIN[i] = (TABLE[SLOTS[i]! + 1]! & COUNT_MASK) >= 2 ? AGAIN[i + 1]! + 1 : 0;
  return bestAt < 0 || best < 2 ? 0 : Math.min(1, (best * (PRE[bestAt + 2]! - PRE[bestAt]!)) / total);
}

/**
 * The duplicate 10-gram fraction, HASHES holding the `grown`-gram hashes (2 or 9). A 10-gram said
 * again has each of its nine 2-grams said again: only a word that starts nine such 2-grams in a row
 * (AGAIN) can start one, so only those are hashed and counted, and most words of prose are stepped
 * over. Counting only these also keeps two 10-grams whose 32-bit hashes meet from passing for one,
 * unless both are such words.
 */
function dupTens(ids: Int32Array, count: number, total: number, grown: number): number {
  const n = 10;
  const hashes = HASHES;
  newPass();
  let dupChars = 0;
  let i = 0;
  while (i + n <= count) {
    const run = AGAIN[i]!;
    if (run < n - 1) {
      // no 10-gram said again starts before the 2-gram after this run, which came once
      i += run + 1;
      continue;
    }
    let h = hashes[i]!;
    for (let k = grown; k < n; k++) h = step(h, ids[i + k]!);
    if (bump(h) > 1) {
      dupChars += PRE[i + n]! - PRE[i]!;
      i += n;
    } else i++;
  }
  return dupChars / total;
}
