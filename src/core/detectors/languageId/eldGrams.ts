/**
 * eld's n-grams of a text without a string per n-gram (eldLoader.ts scores with them): the text
 * spelt as eld spells it, into bytes, and each n-gram's weights from eld's table kept by its
 * chars packed into two numbers. Slicing each n-gram out of its word, adding it to a set and
 * hashing it as a string took most of an identification (6.3 → 3.8 ms over the 670 units the
 * real corpora send; the languages and scores are eld's own, checked by eldLoader.test.ts).
 */

/** eld's table: each n-gram's weights by language index (weights less BASE_WEIGHT). */
export type EldNgrams = Record<string, Record<string, number> | undefined>;

/** Bytes of words eld reads (the word under way is finished), and bytes it reads at most. */
const WORD_BYTES = 350;
const MAX_BYTES = 380;
/** The weight eld's table leaves out of every stored weight. */
const BASE_WEIGHT = 53;

/**
 * Each n-gram's weights, read from eld's table the first time the n-gram is met: pairs of
 * (language index, weight + BASE_WEIGHT) in one pool, and per n-gram its first pair's place in
 * the pool times 64 plus its pair count (eld knows 60 languages). Every n-gram of eld's table
 * met takes about 4 MB here (81,206 n-grams, 141,339 pairs: the n-gram table below and the pool);
 * a typed array per n-gram took 21 MB, which a daemon reading many languages would come to hold.
 * The n-grams past GRAM_PACKED chars (rare) are kept by their string here.
 */
const placeOf = new Map<string, number>();
let pool = new Int32Array(4096);
let poolLength = 0;
const PAIRS_BITS = 6;

function place(ngrams: EldNgrams, gram: string): number {
  let p = placeOf.get(gram);
  if (p === undefined) {
    p = pooled(ngrams, gram);
    placeOf.set(gram, p);
  }
  return p;
}

/** An n-gram's weights from eld's table put in the pool: its place (0 when the table has none). */
function pooled(ngrams: EldNgrams, gram: string): number {
  const o = ngrams[gram];
  if (o === undefined) return 0;
  const langs = Object.keys(o);
  if (langs.length >= 1 << PAIRS_BITS)
    throw new Error(`eld's table gives the n-gram '${gram}' ${langs.length} languages: more than this loader holds`);
  if (poolLength + 2 * langs.length > pool.length) {
    const grown = new Int32Array(Math.max(2 * pool.length, poolLength + 2 * langs.length));
    grown.set(pool.subarray(0, poolLength));
    pool = grown;
  }
  const p = poolLength * (1 << PAIRS_BITS) + langs.length;
  for (const lang of langs) {
    pool[poolLength++] = Number(lang);
    pool[poolLength++] = o[lang]! + BASE_WEIGHT;
  }
  return p;
}

/**
 * The text eld reads, spelt as it spells it: each word's UTF-8 bytes as the char codes of eld's
 * dictionary chars (an ASCII byte is its own char; every dictionary char is below 256), all words
 * one after another in SPELT, word w from WORDS[2w] to WORDS[2w + 1]. Read as far as eld reads.
 * Scratch shared by every call (the analyzer runs one call at a time).
 */
const SPELT = new Uint8Array(2 * MAX_BYTES);
export const WORDS = new Int32Array(2 * MAX_BYTES);

/**
 * Spells the words of `s` (spaces only separate them) into SPELT and WORDS; returns how many
 * words. `dictionary`: per byte value, the code of the char eld spells it with.
 */
export function spell(s: string, dictionary: Uint8Array): number {
  let n = 0;
  let words = 0;
  let wordStart = 0;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c === 32) {
      if (n > wordStart) {
        WORDS[words++] = wordStart;
        WORDS[words++] = n;
      }
      wordStart = n;
      // a space past WORD_BYTES ends the reading: the word before it is whole
      if (bytes > WORD_BYTES) break;
      bytes++;
    } else if (c < 0x80) {
      SPELT[n++] = c;
      bytes++;
    } else if (c < 0x800) {
      SPELT[n++] = dictionary[0xc0 | (c >> 6)]!;
      SPELT[n++] = dictionary[0x80 | (c & 0x3f)]!;
      bytes += 2;
    } else if (c < 0xd800 || c >= 0xe000) {
      SPELT[n++] = dictionary[0xe0 | (c >> 12)]!;
      SPELT[n++] = dictionary[0x80 | ((c >> 6) & 0x3f)]!;
      SPELT[n++] = dictionary[0x80 | (c & 0x3f)]!;
      bytes += 3;
    } else {
      // a surrogate pair (a lone one takes the next char as its pair, as eld does)
      i++;
      c = 0x10000 + (((c & 0x3ff) << 10) | (s.charCodeAt(i) & 0x3ff));
      SPELT[n++] = dictionary[0xf0 | (c >> 18)]!;
      SPELT[n++] = dictionary[0x80 | ((c >> 12) & 0x3f)]!;
      SPELT[n++] = dictionary[0x80 | ((c >> 6) & 0x3f)]!;
      SPELT[n++] = dictionary[0x80 | (c & 0x3f)]!;
      bytes += 4;
    }
    // past MAX_BYTES eld stops inside a word
    if (bytes > MAX_BYTES) break;
  }
  if (n > wordStart) {
    WORDS[words++] = wordStart;
    WORDS[words++] = n;
  }
  return words >> 1;
}

/**
 * The n-grams met so far, by their chars packed into two numbers (an n-gram of up to GRAM_PACKED
 * chars, its leading and trailing spaces included, each char below 256: the first four in `lo`,
 * the rest and the length in `hi`, so two n-grams share a key only when they are the same
 * string), each with its place in the pool and the last call that read it (a call counts an
 * n-gram once, as eld's set of n-grams does). Open addressing, grown at half full; no n-gram is
 * sliced out of a word or hashed as a string. A longer n-gram (the last of a word past
 * WORD_CHARS) goes by its string.
 */
const GRAM_PACKED = 6;
let gramBits = 12;
let gramLo = new Int32Array(1 << gramBits);
let gramHi = new Int32Array(1 << gramBits);
let gramPlace = new Int32Array(1 << gramBits);
let gramCall = new Int32Array(1 << gramBits);
let grams = 0;
let call = 0;
/** The n-grams past GRAM_PACKED chars one call has read. */
const LONGER = new Set<string>();

function slotOf(lo: number, hi: number, bits: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1) >>> (32 - bits);
}

/** Doubles the n-gram table, its entries moved to their new slots. */
function growGrams(): void {
  const [lo, hi, place, calls] = [gramLo, gramHi, gramPlace, gramCall];
  gramBits++;
  const size = 1 << gramBits;
  gramLo = new Int32Array(size);
  gramHi = new Int32Array(size);
  gramPlace = new Int32Array(size);
  gramCall = new Int32Array(size);
  for (let k = 0; k < hi.length; k++) {
    if (hi[k] === 0) continue;
    let slot = slotOf(lo[k]!, hi[k]!, gramBits);
    while (gramHi[slot] !== 0) slot = (slot + 1) & (size - 1);
    gramLo[slot] = lo[k]!;
    gramHi[slot] = hi[k]!;
    gramPlace[slot] = place[k]!;
    gramCall[slot] = calls[k]!;
  }
}

/** The n-gram SPELT[a, b) with a leading and a trailing space when asked, as a string. */
function gramString(a: number, b: number, lead: boolean, trail: boolean): string {
  let g = lead ? ' ' : '';
  for (let i = a; i < b; i++) g += String.fromCharCode(SPELT[i]!);
  return trail ? `${g} ` : g;
}

/**
 * The place in the pool of the n-gram SPELT[a, b) (with a leading and a trailing space when
 * asked) when this call has not read it yet, else -1.
 */
export function firstPlace(ngrams: EldNgrams, a: number, b: number, lead: boolean, trail: boolean): number {
  const len = (lead ? 1 : 0) + (b - a) + (trail ? 1 : 0);
  if (len > GRAM_PACKED) {
    const g = gramString(a, b, lead, trail);
    if (LONGER.has(g)) return -1;
    LONGER.add(g);
    return place(ngrams, g);
  }
  // the string's chars packed, k-th char at bits 8k of lo (k < 4) or of hi (k >= 4), the length above them in hi
  let lo = lead ? 32 : 0;
  let hi = len << 16;
  let k = lead ? 1 : 0;
  for (let i = a; i < b; i++, k++) {
    if (k < 4) lo |= SPELT[i]! << (8 * k);
    else hi |= SPELT[i]! << (8 * (k - 4));
  }
  if (trail) {
    if (k < 4) lo |= 32 << (8 * k);
    else hi |= 32 << (8 * (k - 4));
  }
  const mask = (1 << gramBits) - 1;
  let slot = slotOf(lo, hi, gramBits);
  while (gramHi[slot] !== 0 && (gramHi[slot] !== hi || gramLo[slot] !== lo)) slot = (slot + 1) & mask;
  if (gramHi[slot] === 0) {
    const p = pooled(ngrams, gramString(a, b, lead, trail));
    gramLo[slot] = lo;
    gramHi[slot] = hi;
    gramPlace[slot] = p;
    gramCall[slot] = call;
    if (++grams * 2 > mask) growGrams();
    return p;
  }
  if (gramCall[slot] === call) return -1;
  gramCall[slot] = call;
  return gramPlace[slot]!;
}

/** A new call: every n-gram counts again once (eld's distinct n-grams are per text). */
export function newCall(): void {
  call = (call + 1) | 0;
  if (call === 0) {
    gramCall.fill(0);
    call = 1;
  }
  LONGER.clear();
}

/** Adds the weights at place p of the pool to `sums`; 1, or 0 when p is -1 (an n-gram this call read already). */
export function addWeights(sums: Float64Array, p: number): number {
  if (p < 0) return 0;
  const w = pool;
  const end = (p >>> PAIRS_BITS) + 2 * (p & ((1 << PAIRS_BITS) - 1));
  for (let i = p >>> PAIRS_BITS; i < end; i += 2) sums[w[i]!]! += w[i + 1]!;
  return 1;
}
