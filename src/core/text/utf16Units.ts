/**
 * The UTF-16 units of a string in a typed array, copied by the runtime: reading a typed array is
 * cheaper than charCodeAt per char, and its reads are the same whatever kind of string the text
 * is (flat, a slice of another, pieces joined), where a string's char reads are compiled for the
 * kinds seen so far (after long sliced or concatenated texts, the tokenizer's reads of every later
 * flat text ran slower, its share of an analysis of the real corpora up by about a third). The
 * tokenizer's scan and the normalised view of a text's end (normalisedTail.ts) read them.
 */

import { ScratchBytes } from './scratchBytes.js';

/** Bytes of the scratch kept between calls: a million units. */
const KEEP_BYTES = 2 << 20;
/** The scratch bytes, and the units view of the kept buffer they gave last. */
const BYTES = new ScratchBytes(KEEP_BYTES);
let UNITS: Uint16Array = new Uint16Array(0);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Below this many chars the units are copied one by one (a stream's deltas): the runtime's copy costs more to set up. */
const COPY_BY_CHAR = 32;

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
  const bytes = BYTES.get(2 * n);
  let units = UNITS;
  if (units.buffer !== bytes.buffer) {
    units = new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
    // a string past what the scratch keeps gets units of its own, let go after its reader is done
    if (bytes.length <= KEEP_BYTES) UNITS = units;
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
