/**
 * Run-on lists: words strung on one line, none a function word, drawn from a few and said
 * again and again (word salad that a sentence ran into, or that fills a line alone).
 */
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { C_AFTER, C_CODEISH, C_FUNC, C_LINE, C_STOP, LONG_CHUNK } = chunks;
/** The bit of C_STOP: above the byte anyBit reads. */
const STOP_SHIFT = 31 - Math.clz32(C_STOP);

export interface ListFigures {
  /** The longest run of one-word items on one line, how many of them repeat earlier items, and where it starts (-1 when none). */
  listItems: number;
  listRepeats: number;
  listAt: number;
}

/**
 * The longest run of chunks on one line, each one word and no function word (a comma or
 * semicolon after it allowed), and how many of them repeat a word said before in the run.
 * A function word ends a run as a line does: a sentence that runs on into a list of words is
 * read from where the list starts, and the words of a sentence make runs of a few.
 */
export function readRunOnList(c: Chunks): ListFigures {
  let items = 0;
  let at = -1;
  let from = 0;
  // the longest run: its length, start and chunks; its repeats are counted once, at the end (a text finds a longer run
  // many times over)
  let bestItems = 0;
  let bestAt = -1;
  let bestFrom = 0;
  let bestTo = 0;
  // 1 when the chunk before ended a sentence (C_STOP)
  let stopBefore = 0;
  const { flags, letters, start, n } = c;
  // each chunk's part in a run is read from its bits, not by branches: whether a chunk is a function word is as good as
  // random to the processor
  for (let i = 0; i < n; i++) {
    const fl = flags[i]!;
    const long = (LONG_CHUNK - letters[i]!) >>> 31;
    // a line, a chunk of code or data, a long chunk or a function word ends the run (prose that runs on into a list of
    // words on the same line starts it); so does a chunk of marks alone before it: words strung one after another make a
    // list, while commands or fields parted by "&&", "|" or "-" are segments of a line; and so does the end of a sentence
    // before it: a list strings words, a paragraph of a language with no function words listed strings sentences
    const ends = anyBit(fl & (C_LINE | C_CODEISH | C_FUNC | C_AFTER)) | long | stopBefore;
    stopBefore = (fl >> STOP_SHIFT) & 1;
    if (items > bestItems && ends !== 0) {
      bestItems = items;
      bestAt = at;
      bestFrom = from;
      bestTo = i;
    }
    items &= ends - 1;
    // a chunk of code or data, a function word or a long chunk is no item; any other one is, and starts a run after none
    const item = (anyBit(fl & (C_CODEISH | C_FUNC)) | long) ^ 1;
    const opens = -(item & ((items - 1) >>> 31));
    at = (start[i]! & opens) | (at & ~opens);
    from = (i & opens) | (from & ~opens);
    items += item;
  }
  if (items > bestItems) {
    bestItems = items;
    bestAt = at;
    bestFrom = from;
    bestTo = n;
  }
  return { listItems: bestItems, listRepeats: bestItems > 0 ? chunks.keyRepeats(c, bestFrom, bestTo) : 0, listAt: bestAt };
}

/** 1 when any bit of `bits` (a chunk's flags masked, under 256) is set, else 0. */
function anyBit(bits: number): number {
  return (bits + 0xff) >> 8;
}
