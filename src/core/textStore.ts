import { lastAtOrBelow } from './lastAtOrBelow.js';

/**
 * Append-only text kept as a list of pieces, so that streaming deltas are never
 * concatenated into one growing string (which would copy the text on every slice).
 * Small pieces are merged in batches, keeping the list short and slices cheap.
 */
export class TextStore {
  private pieces: string[] = [];
  private starts: number[] = [];
  private length = 0;
  private mergedUpTo = 0;

  get size(): number {
    return this.length;
  }

  append(s: string): void {
    if (s.length === 0) return;
    this.pieces.push(s);
    this.starts.push(this.length);
    this.length += s.length;
    if (this.pieces.length - this.mergedUpTo >= 64) {
      const tail = this.pieces.splice(this.mergedUpTo).join('');
      const start = this.starts[this.mergedUpTo]!;
      this.starts.length = this.mergedUpTo;
      this.pieces.push(tail);
      this.starts.push(start);
      this.mergedUpTo = this.pieces.length;
    }
  }

  /** Text between UTF-16 offsets [from, to). */
  slice(from: number, to: number): string {
    if (from < 0) from = 0;
    if (to > this.length) to = this.length;
    if (to <= from) return '';
    const lo = lastAtOrBelow(this.starts, from);
    const first = this.pieces[lo]!;
    const off = from - this.starts[lo]!;
    if (to - this.starts[lo]! <= first.length) return first.slice(off, to - this.starts[lo]!);
    let out = first.slice(off);
    for (let i = lo + 1; i < this.pieces.length; i++) {
      const p = this.pieces[i]!;
      const ps = this.starts[i]!;
      if (to - ps <= p.length) {
        out += p.slice(0, to - ps);
        break;
      }
      out += p;
    }
    return out;
  }
}
