/**
 * Whitespace-delimited chunks of the prose (code, markup and addresses left out), read as a
 * reader reads words: does each look like a word of some language, is it a function word,
 * does punctuation or a line break follow it, which script is it in. A chunk is malformed
 * when no language writes a word like it: letters of two scripts glued where the prose
 * writes words apart ("artillery日至itm" in English text; "用Python" in Chinese is normal;
 * "HinweisЉ"), 25+ letters run together, a comma or quote glued between two words
 * ("theater,angel"). Case flips, digits and missing vowels are left out: code and tech prose
 * are full of them ("ErrNotFound", "uint64", "npm"); so are chunks of code and data.
 */
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import { ChunkReading } from './chunkReading.js';
import { type Chunks, chunkSet } from './chunks.js';
import * as close from './closeChunk.js';
import * as letters from './readLetters.js';
import * as punct from './readPunct.js';
import * as fence from './skipFence.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_CODE, F_FENCE, F_LINE, F_SPACE, K_MARK, K_PUNCT, K_SOLO, KIND_MASK } = tokens;
const { closeChunk } = close;
const { readLetters } = letters;
const { readPunct } = punct;
const { endsEscape, skipFence } = fence;
const { isBacktick, opensTag, writesTogether } = shapes;

/** The state of the reading: one object, reset for every reading (see chunkReading.ts). */
const READING = new ChunkReading();

export function readChunks(t: TokenBuffer, text: string, from = 0, fenced = false): Chunks {
  // the prose reading keeps no chunk of code; the fenced one keeps only chunks inside fenced blocks, and their fence
  // alone does not make them code (a URL, a tag or a comment inside the block still does)
  const codeOf = fenced ? F_CODE | F_FENCE : F_CODE;
  const keepOnly = fenced ? F_FENCE : 0;
  // the buffer's arrays in locals: the loop reads them at every token
  const { info: tInfo, start: tStart, id: tId, n: tn } = t;
  // a chunk takes a token and the whitespace after it: half the tokens is room for all of them but in odd texts
  const out = chunkSet(fenced, Math.max(16, (tn - from) >> 1));
  const r = READING;
  r.reset(codeOf);
  // one loop over the tokens and one step past the last: a chunk is closed where whitespace or a glued tag starts the
  // next one, and at the end
  for (let i = from; ; i++) {
    const info = i < tn ? tInfo[i]! : 0;
    let closing = i === tn;
    let breakAfter = false;
    if (closing) {
      // past the last token: the chunk going on ends with the text
    } else if (i > from && info & F_SPACE) {
      r.line = (info & F_LINE) !== 0 || r.escapedLine;
      r.escapedLine = false;
      closing = true;
      breakAfter = r.line;
    } else if (
      r.start >= 0 &&
      (r.code
        ? i > from && (tId[i - 1] === 0x3e || (isBacktick(t, i - 1) && !(info & F_CODE))) && (info & KIND_MASK) === K_SOLO
        : r.letters > 0 && (tId[i] === 0x3c || tId[i] === 0x60) && writesTogether(r.prevScript) && (opensTag(t, i) || isBacktick(t, i)))
    ) {
      // a tag or a code span glued to Chinese, Japanese or Thai ("答案。<eoa>", "<b>粗体</b>", "将`low`更新为") parts it as a
      // space does: those scripts write no space, so a glued tag or span would take a whole line of prose with it into
      // markup or code (in spaced prose it takes a word)
      r.line = false;
      closing = true;
    }
    if (closing) {
      closeChunk(r, out, t, i, info, breakAfter);
      if (i === tn) break;
    }
    if (keepOnly !== 0 && !(info & F_FENCE)) {
      // outside every fenced block: skipped to the next fenced token, as one chunk of code (dropped)
      if (r.start < 0) r.start = tStart[i]!;
      r.code = true;
      while (i + 1 < tn && !(tInfo[i + 1]! & F_FENCE)) i++;
      continue;
    }
    if (keepOnly === 0 && info & F_FENCE && !(endsEscape(t, text, i) && !(tInfo[i + 1]! & F_FENCE))) {
      // inside a fenced block the prose reading keeps no chunk: passed over to the block's end (skipFence.ts)
      i = skipFence(r, out, t, text, i);
      continue;
    }
    const k = info & KIND_MASK;
    if (r.start < 0) r.start = tStart[i]!;
    if ((info & codeOf) === F_CODE || k === K_MARK) {
      r.code = true;
      if (info & F_FENCE) r.sawFence = true;
    }
    if (k === K_PUNCT) {
      i = readPunct(r, t, text, i);
      continue;
    }
    r.endRun();
    readLetters(r, t, i, info);
  }
  out.fenced = r.sawFence;
  return out;
}
