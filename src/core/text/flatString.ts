/**
 * A string of the same chars laid out flat in memory. A text the engine reads is often a view of
 * another string: a slice (a caller's `text.slice()`), or pieces joined lazily (a stream's
 * deltas, the text store's slices). Every char read of such a string goes through the view, and
 * the detectors' reads, compiled once for whatever kinds of string they had seen, stay slower on
 * every later text once they had seen views (over the real corpora, by a tenth of an analysis
 * after a few long sliced texts). Copied through a buffer by the runtime: about 0.7 ns a char,
 * and a text that fits one byte a char comes back as such.
 */

/** Scratch bytes shared by every call: the string made from them is a copy, so the next call may overwrite them. */
let BYTES = Buffer.allocUnsafeSlow(0);

/** Strings shorter than this are never views in V8 (a slice of them is a copy already). */
const SHORTEST_VIEW = 13;
/** Chars of the longest text whose bytes the scratch keeps: a longer one gets bytes of its own, let go after (a daemon keeps no 20 MB buffer for one large input). */
const KEEP_CHARS = 1 << 20;

export function flatString(s: string): string {
  const n = s.length;
  if (n < SHORTEST_VIEW) return s;
  let bytes = BYTES;
  if (bytes.length < 2 * n) {
    bytes = Buffer.allocUnsafeSlow(2 * (n <= KEEP_CHARS ? Math.min(KEEP_CHARS, Math.max(n, bytes.length)) : n));
    if (n <= KEEP_CHARS) BYTES = bytes;
  }
  // written and read in the encoding's own byte order, whatever the machine's (lone surrogates as they are)
  bytes.write(s, 0, 2 * n, 'utf16le');
  return bytes.toString('utf16le', 0, 2 * n);
}
