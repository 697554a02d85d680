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
  // small to start: a table is made per analysis, and a short answer has a few dozen words (it grows by need)
  private keys = new Int32Array(1 << 8);
  private lens = new Int32Array(1 << 8);
  private vals = new Int32Array(1 << 8).fill(-1);
  private count = 0;

  /** The id of (hash, len), or -1. */
  get(hash: number, len: number): number {
    const mask = this.keys.length - 1;
    let i = (hash ^ (hash >>> 15)) & mask;
    for (;;) {
      const v = this.vals[i]!;
      if (v < 0) return -1;
      if (this.keys[i] === hash && this.lens[i] === len) return v;
      i = (i + 1) & mask;
    }
  }

  set(hash: number, len: number, id: number): void {
    if (2 * (this.count + 1) > this.keys.length) this.grow();
    this.insert(hash, len, id);
    this.count++;
  }

  private insert(hash: number, len: number, id: number): void {
    const mask = this.keys.length - 1;
    let i = (hash ^ (hash >>> 15)) & mask;
    while (this.vals[i]! >= 0) i = (i + 1) & mask;
    this.keys[i] = hash;
    this.lens[i] = len;
    this.vals[i] = id;
  }

  private grow(): void {
    const { keys, lens, vals } = this;
    const size = keys.length * 2;
    this.keys = new Int32Array(size);
    this.lens = new Int32Array(size);
    this.vals = new Int32Array(size).fill(-1);
    for (let i = 0; i < keys.length; i++) if (vals[i]! >= 0) this.insert(keys[i]!, lens[i]!, vals[i]!);
  }
}
