/**
 * A punctuation token of the chunk being read: an escaped line break, a run of sentence marks,
 * a bracket or a quote, a run of backslashes, slashes or bars, code punctuation, a mark glued
 * between two words, and the break that punctuation after the chunk's letters makes.
 */
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import type { ChunkReading } from './chunkReading.js';
import * as chunks from './chunks.js';
import * as marks from './marks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_CODE, F_LINE, F_SPACE, SCRIPT_SHIFT } = tokens;
const { C_BREAK, C_CODEISH, C_MALFORMED } = chunks;
const { isBracketOrQuote, isCjkMark, isClausePunct, isCodePunct, isSentenceMark } = marks;
const { escapesBreak, isLetterToken, writesTogether } = shapes;

/** Reads punctuation token i into `r`; returns the last token read (the letter of an escape "\n" is read with it). */
export function readPunct(r: ChunkReading, t: TokenBuffer, text: string, i: number): number {
  const { info: tInfo, start: tStart, end: tEnd } = t;
  const id = t.id[i]!;
  // the escape of a line break or a tab ("\n", "\t") in a string of JSON or code is the break it stands for: a help
  // text kept as one string is lines, not one run of words, and the backslash of an escape is no code
  if (id === 0x5c && escapesBreak(t, text, i)) {
    r.endRun();
    if (r.letters > 0) r.flags |= C_BREAK;
    if (text.charCodeAt(tStart[i + 1]!) !== 0x74) r.escapedLine = true;
    return i + 1;
  }
  if (isSentenceMark(id)) {
    if (r.run > 0 && tStart[i] !== r.lastEnd) r.endRun();
    if (r.run === 0) {
      r.runDots = 0;
      r.runCommas = 0;
      r.runColons = 0;
      r.runPair = 0;
    }
    if (r.run < 2) r.runPair = (r.runPair << 8) | id;
    r.run++;
    if (id === 0x2e) r.runDots++;
    else if (id === 0x2c) r.runCommas++;
    else if (id === 0x3a) r.runColons++;
    r.lastEnd = tEnd[i]!;
  } else r.endRun();
  if (isBracketOrQuote(id)) r.enclosed = true;
  if (id === 0x5c || id === 0x2f || id === 0x7c) {
    r.barRun = id === r.barChar && tStart[i] === r.barEnd ? r.barRun + 1 : 1;
    r.barChar = id;
    r.barEnd = tEnd[i]!;
    if (r.barRun > r.barMax) r.barMax = r.barRun;
  }
  const n = t.n;
  // a semicolon between words on one line ("jackal; teapot") parts clauses or items, as a comma does
  if (
    isCodePunct(id) &&
    !(id === 0x3b && i + 1 < n && (tInfo[i + 1]! & (F_SPACE | F_LINE)) === F_SPACE && isLetterToken(tInfo[i + 1]!, r.codeOf))
  )
    r.flags |= C_CODEISH;
  if (id === 0x2c) r.commas++;
  // a comma, bracket or quote glued between two words ("theater,angel", "word(prev") is no word; inside a fenced
  // block, where the reading counts a semicolon between words as prose does, such a mark is still code ('"a","b"').
  // Chinese, Japanese and Thai write no space after a mark ('的环境。"别路"在', '"map"、"filter"'): glued there is how they write;
  // and a string literal's prefix opens the chunk (b"RSA KEY", f"Hello {name}"): a literal of code, no word
  if (
    r.letters > 0 &&
    isClausePunct(id) &&
    !(r.flags & C_CODEISH) &&
    i + 1 < n &&
    !(tInfo[i + 1]! & F_SPACE) &&
    isLetterToken(tInfo[i + 1]!, F_CODE) &&
    tStart[i + 1] === tEnd[i] &&
    !writesTogether(r.prevScript) &&
    !writesTogether((tInfo[i + 1]! >> SCRIPT_SHIFT) & 15) &&
    !(i > 0 && isCjkMark(text.charCodeAt(tStart[i - 1]!))) &&
    !(id === 0x22 && isStringPrefix(text, r.start, tStart[i]!))
  )
    r.flags |= C_MALFORMED;
  // punctuation after the chunk's letters ends a clause, an item or a field ("word," "name":)
  if (id !== 0x2d && id !== 0x27 && id !== 0x2019 && r.letters > 0) r.flags |= C_BREAK;
  return i;
}

/**
 * Is text[from, to) the prefix of a string literal, one or two of b, r, u, f in either case (Python's b"", f"", rb"";
 * C#'s and Rust's r""): the quote after it opens a literal of code, it is not glued between two words.
 */
function isStringPrefix(text: string, from: number, to: number): boolean {
  if (from < 0 || to - from < 1 || to - from > 2) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k) | 0x20;
    if (c !== 0x62 && c !== 0x72 && c !== 0x75 && c !== 0x66) return false;
  }
  return true;
}
