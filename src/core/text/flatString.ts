/**
 * A string of the same chars laid out flat in memory. A text the engine reads is often a view of
 * another string: a slice (a caller's `text.slice()`), or pieces joined lazily (a stream's
 * deltas, the text store's slices). Every char read of such a string goes through the view, and
 * the detectors' reads, compiled once for whatever kinds of string they had seen, stay slower on
 * every later text once they had seen views (over the real corpora, by a tenth of an analysis
 * after a few long sliced texts). Copied through a buffer by the runtime: about 0.3 ns a char,
 * and a text that fits one byte a char comes back as such.
 */

let BYTES = Buffer.allocUnsafeSlow(0);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Strings shorter than this are never views in V8 (a slice of them is a copy already). */
const SHORTEST_VIEW = 13;

export function flatString(s: string): string {
  const n = s.length;
  if (n < SHORTEST_VIEW) return s;
  if (BYTES.length < 2 * n) BYTES = Buffer.allocUnsafeSlow(2 * Math.max(n, BYTES.length));
  // (lone surrogates are written and read back as they are)
  BYTES.write(s, 0, 2 * n, 'utf16le');
  if (!LITTLE_ENDIAN) {
    BYTES.subarray(0, 2 * n).swap16();
    const flat = BYTES.toString('utf16le', 0, 2 * n);
    BYTES.subarray(0, 2 * n).swap16();
    return flat;
  }
  return BYTES.toString('utf16le', 0, 2 * n);
}
