/**
 * The UTF-16 units of a string in a typed array, copied by the runtime: reading a typed array is
 * cheaper than charCodeAt per char, and its reads are the same whatever kind of string the text
 * is (flat, a slice of another, pieces joined), where a string's char reads are compiled for the
 * kinds seen so far (after long sliced or concatenated texts, the tokenizer's reads of every later
 * flat text ran slower, its share of an analysis of the real corpora up by about a third). The
 * tokenizer's scan and the normalised view of a text's end (normalisedTail.ts) read them.
 */

let BYTES = Buffer.allocUnsafeSlow(0);
let UNITS = new Uint16Array(0);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Below this many chars the units are copied one by one (a stream's deltas): the runtime's copy costs more to set up. */
const COPY_BY_CHAR = 32;
/** Units of the longest string the scratch keeps (2 MB): a daemon keeps no larger buffer for one large input. */
const KEEP_UNITS = 1 << 20;

/**
 * The units of `s` in a scratch array shared by every call, valid until the next call (its
 * first s.length cells; it may be longer). The callers read them synchronously and never one
 * call inside another; a reader that must (a reference the tokenizer replays inside its scan)
 * takes ownUtf16Units.
 */
export function utf16Units(s: string): Uint16Array {
  const n = s.length;
  if (n < COPY_BY_CHAR && UNITS.length >= n) {
    for (let i = 0; i < n; i++) UNITS[i] = s.charCodeAt(i);
    return UNITS;
  }
  let bytes = BYTES;
  let units = UNITS;
  if (units.length < n) {
    bytes = Buffer.allocUnsafeSlow(2 * (n <= KEEP_UNITS ? Math.min(KEEP_UNITS, Math.max(n, 2 * units.length)) : n));
    units = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
    // a string longer than KEEP_UNITS gets units of its own, let go after its reader is done
    if (n <= KEEP_UNITS) {
      BYTES = bytes;
      UNITS = units;
    }
  }
  // (lone surrogates are written as they are)
  bytes.write(s, 0, 2 * n, 'utf16le');
  if (!LITTLE_ENDIAN) bytes.subarray(0, 2 * n).swap16();
  return units;
}

/** The units of `s` in an array of its own. */
export function ownUtf16Units(s: string): Uint16Array {
  const u = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
  return u;
}
