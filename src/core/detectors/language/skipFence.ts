/**
 * A fenced code block met by the prose reading, passed over: inside one the prose reading keeps
 * no chunk, every chunk there is code, and all a chunk of code leaves behind is a break after
 * the last kept chunk, a line owed to the next one and the escaped line break that starts the
 * chunk after it. Those are all that is read of the block's tokens (a third of a mixed text's
 * tokens were read in full only to be dropped).
 */
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import type { ChunkReading } from './chunkReading.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_FENCE, F_LINE, F_SPACE, K_PUNCT, K_SOLO, KIND_MASK } = tokens;
const { C_AFTER, C_BREAK, C_LINE } = chunks;
const { escapesBreak } = shapes;

/** Token i is a backslash that escapes a line break or a tab ("\n", "\t"): it and the letter after it stand for the break. */
export function endsEscape(t: TokenBuffer, text: string, i: number): boolean {
  return t.id[i] === 0x5c && (t.info[i]! & KIND_MASK) === K_PUNCT && escapesBreak(t, text, i);
}

/**
 * Passes over the fenced tokens from i (the first one of the block the reading meets), closing
 * the chunks of code they make as the reading would; returns the last token passed over.
 */
export function skipFence(r: ChunkReading, out: Chunks, t: TokenBuffer, text: string, i: number): number {
  const { info, id, n } = t;
  if (r.start < 0) r.start = t.start[i]!;
  r.code = true;
  r.sawFence = true;
  let j = i;
  for (; j < n; j++) {
    const nx = info[j]!;
    if (j > i) {
      if (!(nx & F_FENCE)) break;
      // an escape whose letter lies past the block: read from it as any token is
      if (endsEscape(t, text, j) && !(info[j + 1]! & F_FENCE)) break;
      const spaced = (nx & F_SPACE) !== 0;
      if (spaced || (id[j - 1] === 0x3e && (nx & KIND_MASK) === K_SOLO)) {
        // the chunk of code closes, as in the reading's loop
        if (out.n > 0) out.flags[out.n - 1] = out.flags[out.n - 1]! | C_BREAK;
        r.owed |= (r.flags & C_LINE) | C_AFTER;
        r.line = spaced && ((nx & F_LINE) !== 0 || r.escapedLine);
        if (spaced) r.escapedLine = false;
        r.flags = r.line ? C_LINE : 0;
      }
    }
    if (endsEscape(t, text, j)) {
      if (text.charCodeAt(t.start[j + 1]!) !== 0x74) r.escapedLine = true;
      j++;
    }
  }
  return j - 1;
}
