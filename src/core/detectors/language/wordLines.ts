/**
 * Lines of one word: a list written one item a line holds nouns, names, keywords or numbers,
 * while a model that fell apart into one word a line puts function words ("the", "with", "of")
 * on lines of their own, and says them again. Blank lines between them are passed over; any
 * other line ends a run, and so does a chunk of code the prose reading left out.
 */
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import { isSpace } from '../languageId/charClasses.js';

// Module-level copies of what the reading uses per chunk: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { C_CODEISH, C_DIGITS, C_FUNC, C_LINE, LONG_CHUNK } = chunks;

export interface WordLineFigures {
  /**
   * Of the runs of lines that each hold one word, the one with the most function words on
   * lines of their own: its lines, those function-word lines, how many of them repeat a
   * function word said before in the run, and where it starts (-1 when none).
   */
  wordLines: number;
  wordLineFunctions: number;
  wordLineFunctionRepeats: number;
  wordLinesAt: number;
}

/**
 * The run of one-word lines (a chunk alone on its line: letters, no code, no digits) with
 * the most function-word lines, and its length and repeats. The chunks of a text say where
 * each starts; whether a chunk is alone on its line is read from the text between it and
 * the next one (whitespace only, a line break in it), so a line the prose reading dropped as
 * code ends the run rather than joining the lines around it.
 */
export function readWordLines(c: Chunks, text: string): WordLineFigures {
  let best: WordLineFigures = { wordLines: 0, wordLineFunctions: 0, wordLineFunctionRepeats: 0, wordLinesAt: -1 };
  let lines = 0;
  let funcs = 0;
  let from = -1;
  const { flags, letters, start, n } = c;
  const close = (to: number) => {
    if (funcs > best.wordLineFunctions) {
      best = {
        wordLines: lines,
        wordLineFunctions: funcs,
        wordLineFunctionRepeats: chunks.keyRepeats(c, from, to, C_FUNC),
        wordLinesAt: start[from]!,
      };
    }
    lines = 0;
    funcs = 0;
    from = -1;
  };
  for (let i = 0; i < n; i++) {
    const fl = flags[i]!;
    // most chunks of prose share their line with others: the test on the text is made for a chunk that starts a line
    // and is followed by one that starts another (or by the end)
    const alone =
      (fl & C_LINE) !== 0 &&
      (fl & (C_CODEISH | C_DIGITS)) === 0 &&
      letters[i]! > 0 &&
      letters[i]! <= LONG_CHUNK &&
      (i + 1 === n || (flags[i + 1]! & C_LINE) !== 0) &&
      aloneOnLine(text, start[i]!, i + 1 < n ? start[i + 1]! : text.length);
    if (!alone) {
      if (lines > 0) close(i);
      continue;
    }
    if (lines === 0) from = i;
    lines++;
    if (fl & C_FUNC) funcs++;
  }
  if (lines > 0) close(n);
  return best;
}

/**
 * Whether a chunk is its line alone: only spaces between the line's start and it (a comment mark or code the prose
 * reading left out before it does not count as nothing), and only whitespace holding a line break between it and the
 * next chunk.
 */
function aloneOnLine(text: string, from: number, to: number): boolean {
  for (let b = from - 1; b >= 0; b--) {
    const ch = text.charCodeAt(b);
    if (ch === 10) break;
    if (!isSpace(ch)) return false;
  }
  let k = from;
  while (k < to && !isSpace(text.charCodeAt(k))) k++;
  let line = false;
  for (; k < to; k++) {
    const ch = text.charCodeAt(k);
    if (!isSpace(ch)) return false;
    if (ch === 10) line = true;
  }
  return line || to === text.length;
}
