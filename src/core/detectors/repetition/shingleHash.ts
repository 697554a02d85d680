/**
 * The rolling hash of the shingle readings (replayed.ts, paragraphChain.ts): a polynomial over
 * the normalised chars, mod 2^32, rolled on one char at a time, and mixed before a table lookup.
 */

/** The hash's base. */
export const BASE = 0x01000193;

/** BASE to the power k, mod 2^32: what a char is multiplied by once k more chars have come after it. */
export function basePower(k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p = Math.imul(p, BASE);
  return p;
}

/** A shingle's hash mixed before it is looked up, so that nearby hashes spread over the table. */
export function mixed(h: number): number {
  const x = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return x ^ (x >>> 12);
}

/**
 * The hash of a shingle of k chars rolled on by one char: `c` comes in and `out`, the char that
 * leaves (0 while the first shingle fills), goes; `outPow` is basePower(k).
 */
export function rolled(h: number, out: number, c: number, outPow: number): number {
  return (Math.imul(h, BASE) - Math.imul(out, outPow) + c) | 0;
}
