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
  /** Index 0..2 for n = 2, 3, 4. */
  top: number[];
  /** Index 0..5 for n = 5..10. */
  dup: number[];
}

/** One word more into a hash of the words before it (a left fold: the n-gram's hash from the (n-1)-gram's). */
function step(h: number, id: number): number {
  return Math.imul(h ^ id, 0x01000193) ^ (h >>> 13);
}

/** hashes[i] becomes the hash of the n-gram at i, from that of the (n-1)-gram (for n = 1, from nothing). */
function growHashes(hashes: Int32Array, ids: Int32Array, count: number, n: number): void {
  for (let i = 0; i + n <= count; i++) hashes[i] = step(n === 1 ? 0x811c9dc5 | 0 : hashes[i]!, ids[i + n - 1]!);
}

/**
 * A reusable open-addressing table of 32-bit hashes to counts. A pass stamp marks live
 * slots, so starting a new pass costs nothing (no clearing); 4096 slots for <= 2048 keys.
 */
const BITS = 12;
const SIZE = 1 << BITS;
const keys = new Int32Array(SIZE);
const vals = new Int32Array(SIZE);
const stamps = new Uint32Array(SIZE);
let pass = 0;

function newPass(): void {
  pass = (pass + 1) >>> 0;
  if (pass === 0) {
    stamps.fill(0);
    pass = 1;
  }
}

/** Adds one to the count of h and returns the new count. */
function bump(h: number): number {
  let i = (h ^ (h >>> BITS)) & (SIZE - 1);
  for (;;) {
    if (stamps[i] !== pass) {
      stamps[i] = pass;
      keys[i] = h;
      vals[i] = 1;
      return 1;
    }
    if (keys[i] === h) return ++vals[i]!;
    i = (i + 1) & (SIZE - 1);
  }
}

export function ngramFractions(ids: Int32Array, lens: Int32Array, count: number): NgramFractions {
  if (count > SIZE / 2) throw new RangeError(`at most ${SIZE / 2} words`);
  let total = 0;
  for (let i = 0; i < count; i++) total += lens[i]!;
  const top: number[] = [];
  const dup: number[] = [];
  if (total === 0) return { top: [0, 0, 0], dup: [0, 0, 0, 0, 0, 0] };
  // prefix sums of word lengths: chars of words [i, i+n) = pre[i+n] - pre[i]
  const pre = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) pre[i + 1] = pre[i]! + lens[i]!;
  const hashes = new Int32Array(count);
  growHashes(hashes, ids, count, 1);
  for (let n = 2; n <= 4; n++) {
    growHashes(hashes, ids, count, n);
    newPass();
    let best = 0;
    let bestAt = -1;
    for (let i = 0; i + n <= count; i++) {
      const c = bump(hashes[i]!);
      if (c > best) {
        best = c;
        bestAt = i;
      }
    }
    top.push(bestAt < 0 || best < 2 ? 0 : Math.min(1, (best * (pre[bestAt + n]! - pre[bestAt]!)) / total));
  }
  for (let n = 5; n <= 10; n++) {
    growHashes(hashes, ids, count, n);
    newPass();
    let dupChars = 0;
    let i = 0;
    while (i + n <= count) {
      if (bump(hashes[i]!) > 1) {
        dupChars += pre[i + n]! - pre[i]!;
        i += n;
      } else i++;
    }
    dup.push(dupChars / total);
  }
  return { top, dup };
}
