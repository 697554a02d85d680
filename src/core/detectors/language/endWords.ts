/**
 * End words: a fluent answer whose last words are keywords strung after its last sentence
 * ("... this spring. hotel flight cheap deal booking tram").
 */
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { CH_SPACE, classOf } = charClass;
const { C_BREAK, C_CODEISH, C_FUNC, C_LINE } = chunks;
const { gluesLatin } = shapes;

export interface EndWordFigures {
  /** Words strung at the end after a sentence (saladEndWords), and where they start (-1 when none). */
  endWords: number;
  endWordsAt: number;
}

/**
 * The words that end the text after its last sentence, when they are no sentence: the chunks
 * back from the end of the text (on its last line) with no function word, no punctuation or
 * line break between them, in a script that writes words apart, the first in lower case right
 * after a sentence mark (. ! ?).
 */
export function readEndWords(text: string, c: Chunks): EndWordFigures {
  const none: EndWordFigures = { endWords: 0, endWordsAt: -1 };
  // the last chunk of prose ends the text: no line of code, markup or anything else after it (no line break between it
  // and the text's last char that is not whitespace)
  if (c.n === 0) return none;
  let last = text.length - 1;
  while (last >= 0 && classOf(text.charCodeAt(last)) === CH_SPACE) last--;
  const lineBreak = text.indexOf('\n', c.start[c.n - 1]!);
  if (lineBreak >= 0 && lineBreak < last) return none;
  let first = -1;
  for (let i = c.n - 1; i >= 0; i--) {
    const fl = c.flags[i]!;
    // a mark after the last word (a closing full stop) is its own; one before another word ends the run
    if (i < c.n - 1 && fl & C_BREAK) break;
    if (fl & (C_FUNC | C_CODEISH) || gluesLatin(c.script[i]!)) return none;
    first = i;
    if (fl & C_LINE) return none;
  }
  if (first < 0) return none;
  const at = c.start[first]!;
  const ch = text.charCodeAt(at);
  if (!(ch >= 0x61 && ch <= 0x7a) && !(ch >= 0x430 && ch <= 0x44f)) return none;
  let j = at - 1;
  while (j >= 0 && classOf(text.charCodeAt(j)) === CH_SPACE) j--;
  const mark = j >= 0 ? text.charCodeAt(j) : 0;
  if (mark !== 0x2e && mark !== 0x21 && mark !== 0x3f) return none;
  return { endWords: c.n - first, endWordsAt: at };
}
