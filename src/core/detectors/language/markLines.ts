/**
 * Mark-only lines: a text that fell apart into fragments between lone marks ("**", ".", ",")
 * has many lines that hold nothing else. A JSDoc comment's lone "*" is a row of
 * test/core/detectors/languageReadings.test.ts.
 */
import { F_LINE, K_PUNCT, KIND_MASK, type TokenBuffer } from '../../text/tokens.js';
import { SlidingShare } from '../slidingShare.js';

export interface MarkLineFigures {
  /** The highest share of lines of marks alone among MARK_LINES lines in a row, and where those start. */
  markLines: number;
  markLinesAt: number;
}

/** Lines (blank ones aside) over which marks-alone lines are counted. */
export const MARK_LINES = 40;
/** * _ . , ; : ! ? : emphasis and sentence marks, which alone on a line say nothing. */
const LONE_MARKS = new Uint8Array(128);
for (const c of '*_.,;:!?') LONE_MARKS[c.charCodeAt(0)] = 1;

/**
 * The highest share, among MARK_LINES lines in a row, of lines that hold sentence or emphasis
 * marks and nothing else ("**", ".", ",", "*_"). A lone "*" is a blank line of a comment.
 */
export function readMarkLines(t: TokenBuffer): MarkLineFigures {
  const window = new SlidingShare(MARK_LINES);
  let only = true;
  let tokens = 0;
  let star = false;
  let start = -1;
  const endLine = () => {
    if (tokens > 0) window.push(only && !(tokens === 1 && star), start);
  };
  const info = t.info;
  for (let i = 0; i < t.n; i++) {
    if (i > 0 && info[i]! & F_LINE) {
      endLine();
      only = true;
      tokens = 0;
    }
    if (tokens === 0) start = t.start[i]!;
    tokens++;
    const id = t.id[i]!;
    star = id === 0x2a;
    if ((info[i]! & KIND_MASK) !== K_PUNCT || id >= 128 || LONE_MARKS[id] === 0) {
      only = false;
      // the rest of the line says nothing more: on to its end
      while (i + 1 < t.n && !(info[i + 1]! & F_LINE)) i++;
    }
  }
  endLine();
  return { markLines: window.best, markLinesAt: window.bestAt };
}
