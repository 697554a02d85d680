/**
 * Mark-only lines: a text that fell apart into fragments between lone marks ("**", ".", ",")
 * has many lines that hold nothing else. A line of one "*" alone (a comment block's blank
 * line) is a row of test/core/detectors/languageReadings.test.ts.
 */
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import { SlidingShare } from '../slidingShare.js';
import { readNumberMarkLines } from './numberMarkLines.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { F_LINE, K_PUNCT, KIND_MASK } = tokens;

export interface MarkLineFigures {
  /** The highest share of lines of marks alone among MARK_LINES lines in a row, and where those start. */
  markLines: number;
  markLinesAt: number;
  /**
   * A text of fewer than MARK_LINES lines is judged whole (no window fills): its lines (blank
   * ones aside) and the share of them that hold no letter, no digit and no bracket or bar, marks alone
   * ("#", "```", "!!", "⁇"). 0 and 0 for a longer text.
   */
  shortLines: number;
  shortMarkOnly: number;
  /** Where the first of those lines starts (-1 when none). */
  shortMarkAt: number;
  /**
   * A short output's lines of numbers and runs of one mark ("48213 *** 7", "** 90123": numberMarkLines.ts), those lines
   * and the lines of marks alone together, and the share of its lines they make. 0 and 0 for a longer text.
   */
  shortNumberMarkLines: number;
  shortMarkedLines: number;
  shortMarkedShare: number;
  /** Where the first of either kind starts (-1 when none). */
  shortNumberMarkAt: number;
}

/** Lines (blank ones aside) over which marks-alone lines are counted. */
export const MARK_LINES = 40;
/** Fewest lines of a short output judged whole for marks alone: one or two lines of marks are an answer ("?", "{ }"). */
export const SHORT_MARK_LINES = 3;
/** Fewest lines of numbers and runs of one mark a short output needs before its lines of marks alone count beside them: one is a stray line of a table or a sum. */
export const NUMBER_MARK_LINES = 2;
/** * _ . , ; : ! ? : emphasis and sentence marks, which alone on a line say nothing. */
const LONE_MARKS = new Uint8Array(128);
for (const c of '*_.,;:!?') LONE_MARKS[c.charCodeAt(0)] = 1;
/** Brackets and bars: a line of them alone is the structure of code, data or a drawing ("{", "},", "]", "|   |   |", " /|\\ "), not a mark said for nothing. */
const BRACKETS = new Uint8Array(128);
for (const c of '{}[]()<>|') BRACKETS[c.charCodeAt(0)] = 1;

/**
 * The highest share, among MARK_LINES lines in a row, of lines that hold sentence or emphasis
 * marks and nothing else ("**", ".", ",", "*_"). A lone "*" is a blank line of a comment.
 */
export function readMarkLines(t: TokenBuffer, text: string): MarkLineFigures {
  const window = new SlidingShare(MARK_LINES);
  let only = true;
  let marksOnly = true;
  let tokens = 0;
  let star = false;
  let start = -1;
  let lines = 0;
  let markOnlyLines = 0;
  let firstMarkOnly = -1;
  const info = t.info;
  // one step past the last token ends the last line; a line's end is read in the loop (no closure over its state, which
  // the loop writes at every token)
  for (let i = 0; i <= t.n; i++) {
    if (i === t.n || (i > 0 && info[i]! & F_LINE)) {
      if (tokens > 0) {
        window.push(only && !(tokens === 1 && star), start);
        lines++;
        if (marksOnly && markOnlyLines++ === 0) firstMarkOnly = start;
      }
      if (i === t.n) break;
      only = true;
      marksOnly = true;
      tokens = 0;
    }
    if (tokens === 0) start = t.start[i]!;
    tokens++;
    const id = t.id[i]!;
    star = id === 0x2a;
    const mark = (info[i]! & KIND_MASK) === K_PUNCT;
    if (!mark || id >= 128 || LONE_MARKS[id] === 0) {
      only = false;
      // an emoji says something, as a word does: a line of them is no line of marks ("🐶🐱🐭", "⚽🏀🏈"); a line of box
      // drawing, blocks or shapes is a figure, as a line of bars is ("│      │", "■□■□", "▇▅▃")
      if (!mark || (id < 128 && BRACKETS[id] === 1) || (id >= 128 && isFigure(text.codePointAt(t.start[i]!)!))) marksOnly = false;
      // a word: the rest of the line says nothing more, on to its end
      if (!marksOnly) while (i + 1 < t.n && !(info[i + 1]! & F_LINE)) i++;
    }
  }
  const short = lines < MARK_LINES;
  const nm = short && lines > 0 ? readNumberMarkLines(text) : null;
  const marked = nm ? nm.numberMark + nm.marksAlone : 0;
  return {
    markLines: window.best,
    markLinesAt: window.bestAt,
    shortLines: short ? lines : 0,
    shortMarkOnly: short && lines > 0 ? markOnlyLines / lines : 0,
    shortMarkAt: short ? firstMarkOnly : -1,
    shortNumberMarkLines: nm ? nm.numberMark : 0,
    shortMarkedLines: marked,
    shortMarkedShare: nm && nm.lines > 0 ? marked / nm.lines : 0,
    shortNumberMarkAt: nm ? nm.at : -1,
  };
}

/**
 * An emoji or a pictographic symbol (Miscellaneous Symbols and Dingbats, the emoji planes), or a char of a drawing (Box
 * Drawing, Block Elements, Geometric Shapes): no mark said for nothing.
 */
function isFigure(cp: number): boolean {
  return (
    (cp >= 0x1f000 && cp <= 0x1faff) || (cp >= 0x2600 && cp <= 0x27bf) || (cp >= 0x2b50 && cp <= 0x2b55) || (cp >= 0x2500 && cp <= 0x25ff)
  );
}
