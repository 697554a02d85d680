import { lastAtOrBelow } from './lastAtOrBelow.js';

/**
 * Maps char offsets of the content to token counts, from the (chars, tokens) pairs seen
 * at each network read: exact at read boundaries, interpolated inside one read.
 */
export class TokenMarks {
  private readonly chars: number[] = [0];
  private readonly tokens: number[] = [0];

  mark(chars: number, tokens: number): void {
    this.chars.push(chars);
    this.tokens.push(tokens);
  }

  tokenAt(offset: number): number {
    const lo = lastAtOrBelow(this.chars, offset);
    const c0 = this.chars[lo]!;
    const t0 = this.tokens[lo]!;
    const c1 = this.chars[lo + 1];
    const t1 = this.tokens[lo + 1];
    if (c1 === undefined || t1 === undefined || c1 === c0) return t0;
    return Math.round(t0 + ((offset - c0) / (c1 - c0)) * (t1 - t0));
  }
}
