/**
 * Random codes: chunks that read as codes of capitals and digits or as chars drawn at random,
 * new to the text, counted over a run of chunks. Names and the codes a text keeps using are
 * no such codes; half the words of a stretch being new ones is a sampler gone wild. The shapes
 * it leaves out (letters then a number, element symbols and counts, codes as items or cells)
 * are rows of test/core/detectors/languageReadings.test.ts, each failing without its branch.
 */
import * as charClass from '../../charClass.js';
import { SlidingShare } from '../slidingShare.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { CH_SPACE, classOf } = charClass;
const { C_AFTER, C_CASED, C_LINE } = chunks;

export interface CodeFigures {
  /** The highest share of chunks that read as new random codes among CODE_CHUNKS in a row, and where those start. */
  codeChunks: number;
  codeChunksAt: number;
  /**
   * A short output (fewer than SHORT_CODE_MAX_LINES lines that hold a chunk) judged whole, where no window of chunks fills
   * and the words before the codes thin their share: its lines that hold one chunk alone, a new random code of
   * capitals and digits, and their share of its lines; 0 and 0 for a longer text. Where the first of them starts (-1).
   */
  shortCodeLines: number;
  shortCodeShare: number;
  shortCodeAt: number;
}

/** Chunks over which chunks that read as codes are counted (all of them in a text of fewer, 8 at least). */
export const CODE_CHUNKS = 24;
const CODE_MIN_CHUNKS = 8;
/** Lines from which an output is no short one for the codes on lines alone (the mark lines' bound, markLines.ts). */
export const SHORT_CODE_MAX_LINES = 40;
/** Fewest such code lines that fail: one or two are an answer ("Your code: X7K2P9"). */
export const SHORT_CODE_LINES = 3;
/** Capitals a code or a random chunk holds at least: one capital is a word's first letter or a unit ("5G", "Mb"). */
const MIN_CAPITALS = 2;
/** A code of capitals and digits: 3-8 chars (shorter are units and names, "A4", "3D"; longer are hashes and serials the text names). */
const CODE_MIN_CHARS = 3;
const CODE_MAX_CHARS = 8;
/** Runs of capitals and digits a code without a leading digit needs: a name is letters then a number (two runs). */
const CODE_RUNS = 3;
/** Chars drawn at random: 4-24 of them, changing class at this share of their chars at least, never this many lower-case letters in a row. */
const RANDOM_MIN_CHARS = 4;
const RANDOM_MAX_CHARS = 24;
const RANDOM_CLASS_CHANGES = 0.6;
const RANDOM_LOWER_RUN = 3;

/**
 * The highest share, among CODE_CHUNKS chunks in a row, of chunks that read as random codes the
 * text had not used before: 3 to 8 capital letters and digits mixed, two capitals and a digit at
 * least, not a hex number ("7QX2", "0PL9W", "XK2Q"), with marks before or after them allowed; or
 * 4 to 24 chars that change between lower case, capitals, digits and marks at every other char
 * or more often, with no three lower-case letters in a row ("yDgU7j", "K6so&CJ#P"), as chars
 * drawn at random do. Some names read as such codes, and a spec or a table repeats its own;
 * random ones come new each time, and healthy text never has half its words of them.
 */
export function readCodeChunks(text: string, c: Chunks): CodeFigures {
  // most texts have no chunk that reads as a code: no window to slide then (its best share is 0, found nowhere)
  // a chunk's flags are tested here before any call: most chunks are lower-case words (see readsAsCodeChunk)
  const { flags, n } = c;
  const short = readShortCodeLines(text, c);
  let first = 0;
  while (first < n && ((flags[first]! & (C_CASED | C_AFTER)) !== C_CASED || !readsAsCodeChunk(text, c, first))) first++;
  if (first === n) return { codeChunks: 0, codeChunksAt: -1, ...short };
  // a code the text had used already is a name it goes on using (a field type, a part number), no random one
  const seen = new Set<number>();
  const window = new SlidingShare(CODE_CHUNKS);
  for (let i = 0; i < first; i++) window.push(false, c.start[i]!);
  for (let i = first; i < n; i++) {
    const code = i === first || ((flags[i]! & (C_CASED | C_AFTER)) === C_CASED && readsAsCodeChunk(text, c, i));
    window.push(code && !seen.has(c.key[i]!), c.start[i]!);
    if (code) seen.add(c.key[i]!);
  }
  window.finish(CODE_MIN_CHUNKS);
  return { codeChunks: window.best, codeChunksAt: window.bestAt, ...short };
}

const NO_SHORT_CODES = { shortCodeLines: 0, shortCodeShare: 0, shortCodeAt: -1 };

/**
 * A short output's lines that are one new random code each (readsAsCode, marks around it allowed), and their share of its
 * lines: "half a sentence, then X7K2P9, 0PL9W, ..." on lines of their own. The window reading cannot see it, the words
 * before the codes being as many as the codes. A code alone on its line is read whatever the chunk before it (the end of
 * the line before, not a list marker of its own line); one the output had on a line before is a name it uses again.
 */
function readShortCodeLines(text: string, c: Chunks): typeof NO_SHORT_CODES {
  const { flags, n } = c;
  let lines = 0;
  let codes = 0;
  let at = -1;
  let seen: Set<number> | null = null;
  for (let i = 0; i < n; i++) {
    if (i > 0 && (flags[i]! & C_LINE) === 0) continue;
    if (++lines >= SHORT_CODE_MAX_LINES) return NO_SHORT_CODES;
    // one chunk alone on its line, with a capital or a digit in it
    if ((flags[i]! & C_CASED) === 0 || !aloneOnLine(text, c.start[i]!) || !readsAsCode(text, c.start[i]!)) continue;
    seen ??= new Set();
    if (seen.has(c.key[i]!)) continue;
    seen.add(c.key[i]!);
    if (codes++ === 0) at = c.start[i]!;
  }
  return codes === 0 ? NO_SHORT_CODES : { shortCodeLines: codes, shortCodeShare: codes / lines, shortCodeAt: at };
}

/** Is the chunk at `at` all its line holds, spaces aside (no list marker or cell bar before or after it)? */
function aloneOnLine(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  if (i >= 0 && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) return false;
  let j = at;
  while (j < text.length && text.charCodeAt(j) > 0x20) j++;
  while (j < text.length && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j++;
  return j === text.length || text.charCodeAt(j) === 0x0a || text.charCodeAt(j) === 0x0d;
}

/** Does chunk i read as a random code (a code of capitals and digits, or chars drawn at random)? */
function readsAsCodeChunk(text: string, c: Chunks, i: number): boolean {
  // most chunks are words in lower case: no code, and not random (which takes two capitals). Neither is read as an
  // item or a cell of its own ("1. X7K2P9", "| aB3xQ9 |": codes a list or a table was asked to hold), and
  // random chars only between words on a line
  const fl = c.flags[i]!;
  if ((fl & (C_CASED | C_AFTER)) !== C_CASED) return false;
  const at = c.start[i]!;
  const ch = text.charCodeAt(at);
  // a capital and a lower-case letter open most chunks that get here ("The", "McDonald"): the code of capitals and digits
  // ends at that letter, which is no mark or space, so only random chars are left to read
  const code = !isLower(ch) && !(isUpper(ch) && isLower(text.charCodeAt(at + 1))) && readsAsCode(text, at);
  return code || ((fl & C_LINE) === 0 && readsAsRandom(text, at));
}

function isUpper(ch: number): boolean {
  return ch >= 0x41 && ch <= 0x5a;
}

function isLower(ch: number): boolean {
  return ch >= 0x61 && ch <= 0x7a;
}

/**
 * Is the chunk at `at` (to the next whitespace) 4-24 printable ASCII chars that change class
 * (lower case, capital, digit, mark) at 60% of its chars or more, with two capitals, a lower-case
 * letter and a digit or mark, and no three lower-case letters in a row? Words, identifiers
 * ("getElementById", "McDonald's") and numbers do not; chars drawn at random do. Not element
 * symbols and counts, each lower-case letter right after a capital, brackets and digits
 * between, marks only at the end ("KMnO4", "Ca(OH)2"), and not an item of a list in a
 * sentence (a comma or semicolon after it).
 */
export function readsAsRandom(text: string, at: number): boolean {
  let len = 0;
  let capitals = 0;
  let lowers = 0;
  let others = 0;
  let runs = 0;
  let prev = -1;
  let lowerRun = 0;
  let last = 0;
  // element symbols (a capital, maybe one lower-case letter), counts and brackets, marks only at its end
  const first = text.charCodeAt(at);
  let formula = !isLower(first);
  let marksAtEnd = false;
  for (let i = at; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch <= 0x20) break;
    if (ch >= 0x7f || ++len > RANDOM_MAX_CHARS) return false;
    last = ch;
    // its class, named by a char of it: a (lower case), A (capital), 0 (digit) or ! (mark)
    const lower = isLower(ch);
    const k = lower ? 0x61 : ch >= 0x41 && ch <= 0x5a ? 0x41 : ch >= 0x30 && ch <= 0x39 ? 0x30 : 0x21;
    if (lower) {
      if (++lowerRun >= RANDOM_LOWER_RUN) return false;
      lowers++;
      if (prev !== 0x41 || lowerRun > 1) formula = false;
    } else {
      lowerRun = 0;
      if (k === 0x41) capitals++;
      else others++;
    }
    if (k === 0x21 && ch !== 0x28 && ch !== 0x29) marksAtEnd = true;
    else if (marksAtEnd) formula = false;
    if (k !== prev) runs++;
    prev = k;
  }
  if (formula || last === 0x2c || last === 0x3b) return false;
  return len >= RANDOM_MIN_CHARS && capitals >= MIN_CAPITALS && lowers >= 1 && others >= 1 && runs >= RANDOM_CLASS_CHANGES * len;
}

/** Is the chunk at `at` (to the next whitespace) 3-8 capitals and digits mixed (opening with a digit, or three runs of them at least: not a name, which is capitals then a number), two capitals and a digit at least, not hex, marks around it aside? */
export function readsAsCode(text: string, at: number): boolean {
  let i = at;
  // marks before it
  while (i < text.length && isMarkChar(text.charCodeAt(i))) i++;
  let len = 0;
  let capitals = 0;
  let digits = 0;
  let hex = true;
  // runs of capitals and of digits: a name is capitals then a number (two runs); a random code mixes
  // them more, or opens with a digit
  const digitFirst = text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39;
  let runs = 0;
  let wasDigit = false;
  for (; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    const digit = ch >= 0x30 && ch <= 0x39;
    if (digit) digits++;
    else if (ch >= 0x41 && ch <= 0x5a) {
      capitals++;
      if (ch > 0x46) hex = false;
    } else break;
    if (len === 0 || digit !== wasDigit) runs++;
    wasDigit = digit;
    if (++len > CODE_MAX_CHARS) return false;
  }
  // marks after it, then whitespace or the end; a comma or semicolon makes it an item of a list in a sentence ("codes X7K2P9, Q4M8ZT")
  let item = false;
  for (; i < text.length && isMarkChar(text.charCodeAt(i)); i++)
    if (text.charCodeAt(i) === 0x2c || text.charCodeAt(i) === 0x3b) item = true;
  if (item || (i < text.length && classOf(text.charCodeAt(i)) !== CH_SPACE)) return false;
  return len >= CODE_MIN_CHARS && capitals >= MIN_CAPITALS && digits >= 1 && !hex && (runs >= CODE_RUNS || digitFirst);
}

function isMarkChar(ch: number): boolean {
  return ch < 0x80 && ch > 0x20 && !((ch >= 0x30 && ch <= 0x39) || (ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a));
}
