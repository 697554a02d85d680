/**
 * A string of the same chars laid out flat in memory. A text the engine reads is often a view of
 * another string: a slice (a caller's `text.slice()`), or pieces joined lazily (a stream's
 * deltas, the text store's slices). Every char read of such a string goes through the view, and
 * the detectors' reads, compiled once for whatever kinds of string they had seen, stay slower on
 * every later text once they had seen views (over the real corpora, by a tenth of an analysis
 * after a few long sliced texts). Copied through a buffer by the runtime: about 0.7 ns a char,
 * and a text that fits one byte a char comes back as such.
 */

import { ScratchBytes } from './scratchBytes.js';

/** Scratch bytes shared by every call (up to 2 MB kept): the string made from them is a copy, so the next call may overwrite them. */
const BYTES = new ScratchBytes(2 << 20);

/** Strings shorter than this are never views in V8 (a slice of them is a copy already). */
const SHORTEST_VIEW = 13;

export function flatString(s: string): string {
  const n = s.length;
  if (n < SHORTEST_VIEW) return s;
  const bytes = BYTES.get(2 * n);
  // written and read in the encoding's own byte order, whatever the machine's (lone surrogates as they are)
  bytes.write(s, 0, 2 * n, 'utf16le');
  return bytes.toString('utf16le', 0, 2 * n);
}
