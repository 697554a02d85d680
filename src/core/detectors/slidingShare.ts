/**
 * The highest share of hits among `size` items in a row (lines, chunks, words), read as the
 * items come, and where the stretch with it starts: the window that the lone-mark lines, the
 * codes of capitals and digits and the lists of floods are judged on.
 */
export class SlidingShare {
  private readonly hits: Uint8Array;
  private readonly starts: Int32Array;
  private n = 0;
  private inWindow = 0;
  /** The highest share so far, and the start (a char offset) of its first item; -1 when none. */
  best = 0;
  bestAt = -1;

  constructor(private readonly size: number) {
    this.hits = new Uint8Array(size);
    this.starts = new Int32Array(size);
  }

  push(hit: boolean, start: number): void {
    const k = this.n % this.size;
    if (this.n >= this.size) this.inWindow -= this.hits[k]!;
    this.hits[k] = hit ? 1 : 0;
    this.starts[k] = start;
    this.inWindow += this.hits[k]!;
    this.n++;
    if (this.n >= this.size && this.inWindow / this.size > this.best) {
      this.best = this.inWindow / this.size;
      this.bestAt = this.starts[this.n % this.size]!;
    }
  }

  /** A text of fewer items than a window, `fewest` at least: the share among all of them. */
  finish(fewest: number): void {
    if (this.n >= fewest && this.n < this.size && this.inWindow / this.n > this.best) {
      this.best = this.inWindow / this.n;
      this.bestAt = this.starts[0]!;
    }
  }
}
