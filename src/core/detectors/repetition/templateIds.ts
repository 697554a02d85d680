/**
 * The ids the region finder (repeats.ts) compares when the whole text is read as a template: the
 * words it uses at most a few times stand for something new (WILD), so copies of one template
 * that name a new thing each are copies too.
 */
import { F_FUNC, isWordToken, type TokenBuffer } from '../../text/tokens.js';
import { WILD } from './measureRegion.js';

/**
 * The ids a region finder compares: token ids, with the words (not function words) the text uses
 * at most `rareMax` times as WILD (or none, for verbatim). The array is scratch shared by every
 * call (the analyzer runs one at a time): valid until the next call.
 */
export function templateIds(t: TokenBuffer, counts: Int32Array, rareMax: number): Int32Array {
  if (TEMPLATE.length < t.n) TEMPLATE = new Int32Array(Math.max(t.n, 2 * TEMPLATE.length));
  const n = t.n;
  const out = TEMPLATE.subarray(0, n);
  // the token arrays in locals: the loop writes to an array, after which the runtime would read the buffer's fields again
  const ids = t.id;
  const infos = t.info;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const info = infos[i]!;
    out[i] = rareMax > 0 && counts[id]! <= rareMax && isWordToken(info) && !(info & F_FUNC) ? WILD : id;
  }
  return out;
}

/** templateIds' array. */
let TEMPLATE = new Int32Array(0);

/** Occurrences of each token id. */
export function idCounts(t: TokenBuffer, ids: number): Int32Array {
  const counts = new Int32Array(ids);
  for (let i = 0; i < t.n; i++) {
    const id = t.id[i]!;
    counts[id] = counts[id]! + 1;
  }
  return counts;
}
