/**
 * Distinct lines of a text by the hash of their tokens: how often each came, its chars and where
 * it first came, in the order first seen, and the chars of the lines that came more than once
 * (Gopher-style duplicate lines). An open-addressed table of entry indexes over typed arrays kept
 * from call to call (the analyzer runs one at a time): a call allocates nothing once the arrays
 * are grown, and starting over costs a stamp, no clearing.
 */
import { grownInt32 } from './text/grownInt32.js';

/** Lines longer than this are not counted as lines. */
const MAX_LINE = 2000;

export class LineCounts {
  /** Per slot: the stamp of the call that wrote it, and its entry; a slot of another call is free. */
  private slotStamp = new Int32Array(256);
  private slotEntry = new Int32Array(256);
  private mask = 255;
  private stamp = 0;
  /** Per entry, in the order first seen: the line's hash, count, chars and first offset. */
  private hash = new Int32Array(64);
  private count = new Int32Array(64);
  private chars = new Int32Array(64);
  private at = new Int32Array(64);
  private n = 0;
  /** Chars of the lines counted, and of those that came more than once (every copy, the first included). */
  lineChars = 0;
  dupChars = 0;

  /** Forgets every line. */
  reset(): void {
    this.n = 0;
    this.lineChars = 0;
    this.dupChars = 0;
    if (++this.stamp === 0x7fffffff) {
      this.slotStamp.fill(0);
      this.stamp = 1;
    }
  }

  /** The line [from, to) of hash `h` (one of 1 to MAX_LINE chars; others are not counted). */
  line(h: number, from: number, to: number): void {
    const len = to - from;
    if (len <= 0 || len > MAX_LINE) return;
    this.lineChars += len;
    const before = this.add(h, len, from);
    // a line said a second time brings its first copy into the duplicates too
    if (before > 0) this.dupChars += before === 1 ? 2 * len : len;
  }

  /** One more line of hash `h`, `chars` long, at `at`: returns how often it came before (0 when new). */
  private add(h: number, chars: number, at: number): number {
    const stamp = this.stamp;
    const slotStamp = this.slotStamp;
    const mask = this.mask;
    let i = (h ^ (h >>> 15)) & mask;
    while (slotStamp[i] === stamp) {
      const e = this.slotEntry[i]!;
      if (this.hash[e] === h) {
        const before = this.count[e]!;
        this.count[e] = before + 1;
        return before;
      }
      i = (i + 1) & mask;
    }
    const e = this.n++;
    if (e === this.hash.length) this.growEntries();
    this.hash[e] = h;
    this.count[e] = 1;
    this.chars[e] = chars;
    this.at[e] = at;
    slotStamp[i] = stamp;
    this.slotEntry[i] = e;
    if (2 * this.n > mask + 1) this.growSlots();
    return 0;
  }

  /** The line that came most often (the first seen of those), as { n: count, chars, at }; n 0 and at -1 when none. */
  top(): { n: number; chars: number; at: number } {
    let top = -1;
    for (let e = 0; e < this.n; e++) if (top < 0 || this.count[e]! > this.count[top]!) top = e;
    return top < 0 ? { n: 0, chars: 0, at: -1 } : { n: this.count[top]!, chars: this.chars[top]!, at: this.at[top]! };
  }

  private growEntries(): void {
    const size = 2 * this.hash.length;
    this.hash = grownInt32(this.hash, size);
    this.count = grownInt32(this.count, size);
    this.chars = grownInt32(this.chars, size);
    this.at = grownInt32(this.at, size);
  }

  /** Twice the slots, this call's entries put back in them (the other calls' slots are dropped with the old arrays). */
  private growSlots(): void {
    const size = 2 * (this.mask + 1);
    this.slotStamp = new Int32Array(size);
    this.slotEntry = new Int32Array(size);
    this.mask = size - 1;
    for (let e = 0; e < this.n; e++) {
      const h = this.hash[e]!;
      let i = (h ^ (h >>> 15)) & this.mask;
      while (this.slotStamp[i] === this.stamp) i = (i + 1) & this.mask;
      this.slotStamp[i] = this.stamp;
      this.slotEntry[i] = e;
    }
  }
}
