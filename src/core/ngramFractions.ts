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
 * analysis reports (top 2-gram, duplicate 10-gram), which skips seven of the nine counting passes.
 */
export type NgramsWanted = 'all' | 'reported';

/** One word more into a hash of the words before it (a left fold: the n-gram's hash from the (n-1)-gram's). */
function step(h: number, id: number): number {
  return Math.imul(h ^ id, 0x01000193) ^ (h >>> 13);
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
/** The words that may start an n-gram said again (see topPairs), in text order. */
const CAND = new Int32Array(SIZE / 2);

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
  for (let i = 0; i < count; i++) hashes[i] = step(0x811c9dc5 | 0, ids[i]!);
  const top = [topPairs(ids, count, total)];
  if (wanted === 'reported') {
    // the 10-grams' hashes folded at once from their 2-grams' at the words that may start one said again
    const k = candidates(count, 10, -1);
    for (let c = 0; c < k; c++) {
      const i = CAND[c]!;
      let h = hashes[i]!;
      for (let j = 2; j < 10; j++) h = step(h, ids[i + j]!);
      hashes[i] = h;
    }
    return { top: [top[0]!, NaN, NaN], dup: [NaN, NaN, NaN, NaN, NaN, dupOf(k, total, 10)] };
  }
  const dup: number[] = [];
  let k = -1;
  for (let n = 3; n <= 10; n++) {
    // each n-gram's hash grown from the (n-1)-gram's (a word that may start an n-gram said again could start such an
    // (n-1)-gram: its hash is grown at every n)
    k = candidates(count, n, k);
    for (let c = 0; c < k; c++) {
      const i = CAND[c]!;
      hashes[i] = step(hashes[i]!, ids[i + n - 1]!);
    }
    if (n <= 4) top.push(topOf(k, total, n));
    else dup.push(dupOf(k, total, n));
  }
  return { top, dup };
}

/**
 * The top 2-gram fraction (HASHES holding the 1-gram hashes, which become the 2-grams'), and in
 * AGAIN, per word, how many 2-grams in a row from it on came twice or more. An n-gram said again
 * has each of its n - 1 2-grams said again: only a word with AGAIN of n - 1 or more can start
 * one (candidates), so the passes for n = 3 to 10 hash and count those words alone (most words of
 * prose are none), and two n-grams whose 32-bit hashes merely meet are not taken for one unless
 * both start at such words.
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
 * The words that may start an n-gram said again, in CAND in text order, and how many: read from
 * every word when `kept` is -1, else from the first `kept` of CAND (those of a shorter n-gram,
 * which hold these).
 */
function candidates(count: number, n: number, kept: number): number {
  let k = 0;
  if (kept < 0) {
    for (let i = 0; i + n <= count; i++) if (AGAIN[i]! >= n - 1) CAND[k++] = i;
    return k;
  }
  for (let c = 0; c < kept; c++) {
    const i = CAND[c]!;
    if (AGAIN[i]! >= n - 1 && i + n <= count) CAND[k++] = i;
  }
  return k;
}

/** The top n-gram fraction over the first k candidates (an n-gram said once is no top one). */
function topOf(k: number, total: number, n: number): number {
  newPass();
  let best = 0;
  let bestAt = -1;
  for (let c = 0; c < k; c++) {
    const i = CAND[c]!;
    const b = bump(HASHES[i]!);
    if (b > best) {
      best = b;
      bestAt = i;
    }
  }
  return bestAt < 0 || best < 2 ? 0 : Math.min(1, (best * (PRE[bestAt + n]! - PRE[bestAt]!)) / total);
}

/** The duplicate n-gram fraction over the first k candidates: left to right, past each n-gram said before. */
function dupOf(k: number, total: number, n: number): number {
  newPass();
  let dupChars = 0;
  for (let c = 0; c < k; c++) {
    const i = CAND[c]!;
    if (bump(HASHES[i]!) > 1) {
      dupChars += PRE[i + n]! - PRE[i]!;
      // the words of this n-gram start none counted
      while (c + 1 < k && CAND[c + 1]! < i + n) c++;
    }
  }
  return dupChars / total;
}
