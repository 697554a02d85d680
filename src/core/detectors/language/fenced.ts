/**
 * What fenced code blocks hold, read as the prose is: code stays code (its identifiers are no
 * malformed words), but a block that turned into noise or into a line of strung words fails
 * as the prose would. Not the salad of windows without function words: an install line or a
 * keyword list in a block is one.
 */
import type { TokenBuffer } from '../../text/tokens.js';
import { readRunOnList } from './runOnList.js';
import { readWindows } from './windows.js';
import { readChunks } from './wordShapes.js';

/** The worst malformed window inside fenced blocks, and the longest run-on line of words with its repeats (fields as in the prose readings). */
export interface FencedFigures {
  malformed: number;
  malformedAt: number;
  listItems: number;
  listRepeats: number;
  listAt: number;
}

export function readFenced(t: TokenBuffer, text: string): FencedFigures {
  const fc = readChunks(t, text, 0, true);
  const w = readWindows(fc);
  const l = readRunOnList(fc);
  return { malformed: w.malformed, malformedAt: w.malformedAt, listItems: l.listItems, listRepeats: l.listRepeats, listAt: l.listAt };
}
