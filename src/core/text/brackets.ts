/**
 * Closing brackets that close what the text opened. Code ends in a staircase of closers (the
 * `})` of nested callbacks, the `]}` of nested data): that is its structure, however many lines
 * it takes. A flood of closers that close nothing is no structure, so the brackets are counted,
 * not excused by their shape.
 */
import { K_PUNCT, KIND_MASK, type TokenBuffer } from './tokens.js';

/** ASCII ids of the three bracket pairs: opener → slot, closer → slot + 3. */
function slot(id: number): number {
  switch (id) {
    case 0x28:
      return 0;
    case 0x5b:
      return 1;
    case 0x7b:
      return 2;
    case 0x29:
      return 3;
    case 0x5d:
      return 4;
    case 0x7d:
      return 5;
    default:
      return -1;
  }
}

/** Marks a staircase of closers may hold between its brackets (`});`, `],`). */
function isSeparator(id: number): boolean {
  return id === 0x3b || id === 0x2c;
}

/**
 * Are the tokens [from, to) brackets (and `;` `,`) only, at least one a closer, and does each
 * closer close a bracket of its kind that the text opened before it and left open? One pass over
 * the tokens before `from`, made only for a run of punctuation at the end.
 */
export function closesOpened(t: TokenBuffer, from: number, to: number): boolean {
  const open = new Int32Array(3);
  let closers = 0;
  for (let i = from; i < to; i++) {
    if ((t.info[i]! & KIND_MASK) !== K_PUNCT) return false;
    const s = slot(t.id[i]!);
    if (s < 0 && !isSeparator(t.id[i]!)) return false;
  }
  for (let i = 0; i < from; i++) {
    if ((t.info[i]! & KIND_MASK) !== K_PUNCT) continue;
    const s = slot(t.id[i]!);
    if (s >= 0) open[s % 3] = open[s % 3]! + (s < 3 ? 1 : -1);
  }
  for (let i = from; i < to; i++) {
    const s = slot(t.id[i]!);
    if (s < 0) continue;
    if (s < 3) open[s] = open[s]! + 1;
    else {
      closers++;
      open[s - 3] = open[s - 3]! - 1;
      if (open[s - 3]! < 0) return false;
    }
  }
  return closers > 0;
}
