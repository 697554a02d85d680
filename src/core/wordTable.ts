/**
 * Word ids by a 32-bit hash of the lower-cased ASCII word plus its length, in an
 * open-addressing table. The scan computes the hash as it reads the word, so ASCII
 * words (most tokens) are interned without slicing a string or hashing it again.
 * Two different words share an id only if both hash and length collide: with 100,000
 * distinct words of similar lengths a collision somewhere is plausible (roughly one text
 * in ten), and it merges those two words, which can turn a two-word phrase loop into a
 * word loop of the same extent (and, rarely, push a word run past its threshold).
 */
export class WordTable {
  /**
   * SLOT ints per slot: hash, length, id + 1 (0 for an empty slot, so a new table needs no
   * fill). One array, so a probe reads one cache line, and one allocation per table.
   */
  private slots: Int32Array;
  private mask: number;
  private count = 0;

  /** `expectedChars`: the text's length when known, to size the table once (distinct words grow about as the square root of the length). */
  constructor(expectedChars = 0) {
    let size = MIN_SIZE;
    const want = Math.min(MAX_START, 4 * Math.sqrt(expectedChars));
    while (size < want) size *= 2;
    this.slots = new Int32Array(size * SLOT);
    this.mask = size - 1;
  }

  /** The id of (hash, len), or -1. */
  get(hash: number, len: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = (hash ^ (hash >>> 15)) & mask;
    for (;;) {
      const at = i * SLOT;
      const v = slots[at + 2]!;
      if (v === 0) return -1;
      if (slots[at] === hash && slots[at + 1] === len) return v - 1;
      i = (i + 1) & mask;
    }
  }

  set(hash: number, len: number, id: number): void {
    if (2 * (this.count + 1) > this.mask + 1) this.grow();
    this.insert(hash, len, id + 1);
    this.count++;
  }

  private insert(hash: number, len: number, v: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = (hash ^ (hash >>> 15)) & mask;
    while (slots[i * SLOT + 2] !== 0) i = (i + 1) & mask;
    const at = i * SLOT;
    slots[at] = hash;
    slots[at + 1] = len;
    slots[at + 2] = v;
  }

  private grow(): void {
    const old = this.slots;
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(size * SLOT);
    this.mask = size - 1;
    for (let at = 0; at < old.length; at += SLOT) if (old[at + 2] !== 0) this.insert(old[at]!, old[at + 1]!, old[at + 2]!);
  }
}

const SLOT = 4;
/** Slots of the smallest table: a short answer has a few dozen distinct words. */
const MIN_SIZE = 64;
/** A table sized from the expected length starts no larger than this (it grows by need). */
const MAX_START = 1 << 15;
