/**
 * The highest share of hits among `size` items in a row (lines, chunks, words), read as the
 * items come, and where the stretch with it starts: the window that the lone-mark lines, the
 * codes of capitals and digits and the lists of floods are judged on.
 */
export class SlidingShare {
  private readonly hits: Uint8Array;
  private readonly starts: Int32Array;
  private n = 0;
  /** The ring slot the next item goes to. */
  private k = 0;
  private inWindow = 0;
  /** Hits of the best full window (its share is this over size), or of all items in a text of fewer. */
  private bestHits = 0;
  private bestOf: number;
  /** The start (a char offset) of the best stretch's first item; -1 when none. */
  bestAt = -1;

  constructor(private readonly size: number) {
    this.hits = new Uint8Array(size);
    this.starts = new Int32Array(size);
    this.bestOf = size;
  }

  /** The highest share so far. */
  get best(): number {
    return this.bestHits / this.bestOf;
  }

  push(hit: boolean, start: number): void {
    const k = this.k;
    this.inWindow += (hit ? 1 : 0) - this.hits[k]!;
    this.hits[k] = hit ? 1 : 0;
    this.starts[k] = start;
    this.k = k + 1 === this.size ? 0 : k + 1;
    this.n++;
    if (this.n >= this.size && this.inWindow > this.bestHits) {
      this.bestHits = this.inWindow;
      this.bestAt = this.starts[this.k]!;
    }
  }

  /** A text of fewer items than a window, `fewest` at least: the share among all of them. */
  finish(fewest: number): void {
    if (this.n >= fewest && this.n < this.size && this.inWindow / this.n > this.best) {
      this.bestHits = this.inWindow;
      this.bestOf = this.n;
      this.bestAt = this.starts[0]!;
    }
  }
}
