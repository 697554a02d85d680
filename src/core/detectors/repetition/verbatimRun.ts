/**
 * How many copies of a P-token unit run back to back up to token `end`: walking back one
 * copy at a time, a copy counts while at most a fifth of its tokens differ from the token
 * one period earlier (a word or two changed per copy, as near loops do). A rare word (WILD)
 * in a copy is something new: a copy of prose (two function words or more) may bring one, as
 * a stuck sentence that swaps its last word does; a copy of data or code (a JSON block, a
 * table row, a declaration) that names something new is an item of a list, not a copy. The
 * run is then extended token by token into a partial first copy.
 */
import { WILD } from './repeats.js';

export interface Run {
  /** First token of the run (the start of its first copy). */
  start: number;
  /** Copies, counting the first one and partial ones (a unit repeated 3.5 times is 3.5). */
  copies: number;
  /** Tokens equal to the token one period earlier, over the tokens compared. */
  similarity: number;
}

export function verbatimRun(ids: Int32Array, lo: number, end: number, period: number, isFunction: (i: number) => boolean = () => false): Run {
  const p = Math.max(1, period);
  const budget = Math.floor(p / 5);
  let at = end;
  let same = 0;
  let compared = 0;
  // whole copies, newest first
  while (at - p - p >= lo) {
    let miss = 0;
    let wild = 0;
    let func = 0;
    for (let i = at - p; i < at; i++) {
      const id = ids[i]!;
      if (id === WILD) wild++;
      else if (id !== ids[i - p]) miss++;
      else if (isFunction(i)) func++;
    }
    if (wild > (func >= 2 ? 1 : 0) || miss + wild > budget) break;
    same += p - miss;
    compared += p;
    at -= p;
  }
  // a partial copy before them: exact tokens only
  while (at - 1 - p >= lo) {
    const id = ids[at - 1]!;
    if (id === WILD || id !== ids[at - 1 - p]) break;
    same++;
    compared++;
    at--;
  }
  const start = at - p;
  return { start, copies: (end - start) / p, similarity: compared === 0 ? 0 : same / compared };
}
