/**
 * What a token is, for the word-shape reading: a tag opening, an escaped line break, a mark
 * that parts the labels of a host or path, a word of letters, and which scripts write their
 * words together.
 */
import * as charClass from '../../charClass.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { SC_CJK, SC_HANGUL, SC_NONE, SC_THAI } = charClass;
const { F_CODE, F_SPACE, isWordToken, K_MARK, K_PUNCT, KIND_MASK, SCRIPT_SHIFT } = tokens;

/** Is the backslash token `i` glued to a lone n, r or t, the escape of a line break, a return or a tab? */
export function escapesBreak(t: TokenBuffer, text: string, i: number): boolean {
  const j = i + 1;
  if (j >= t.n || t.start[j] !== t.end[i] || t.end[j]! - t.start[j]! !== 1) return false;
  const c = text.charCodeAt(t.start[j]!);
  return c === 0x6e || c === 0x72 || c === 0x74;
}

/**
 * Is the token a dot, "@", "/" or ":", which part the labels of a host, an address or a path, or "=" or ";", which part
 * a key from its value ("--holder=СТРОКА") and the items of a list written with no space ("tool;алат")?
 */
export function partsLabels(info: number, id: number): boolean {
  return (info & KIND_MASK) === K_PUNCT && (id === 0x2e || id === 0x40 || id === 0x2f || id === 0x3a || id === 0x3d || id === 0x3b);
}

/** Scripts written without spaces between words (or that glue Latin terms to their words). */
export function gluesLatin(script: number): boolean {
  return script === SC_CJK || script === SC_HANGUL || script === SC_THAI;
}

/** Scripts written with no space between words or after a mark: each letter is its own token (K_SOLO). */
export function writesTogether(script: number): boolean {
  return script === SC_CJK || script === SC_THAI;
}

/** Token i is a backtick: it opens or closes an inline code span. */
export function isBacktick(t: TokenBuffer, i: number): boolean {
  return t.id[i] === 0x60 && (t.info[i]! & KIND_MASK) === K_PUNCT;
}

/** Token i is a '<' that opens a tag: a tag name or "/" and a tag name follow it, glued. */
export function opensTag(t: TokenBuffer, i: number): boolean {
  if (t.id[i] !== 0x3c || (t.info[i]! & KIND_MASK) !== K_PUNCT || i + 1 >= t.n) return false;
  const next = t.info[i + 1]!;
  if (next & F_SPACE) return false;
  if ((next & KIND_MASK) === K_MARK) return true;
  return t.id[i + 1] === 0x2f && i + 2 < t.n && (t.info[i + 2]! & (KIND_MASK | F_SPACE)) === K_MARK;
}

/** A word of letters that is not code for the reading (codeOf: the code flags readChunks counts). */
export function isLetterToken(info: number, codeOf: number): boolean {
  return isWordToken(info) && ((info >> SCRIPT_SHIFT) & 15) !== SC_NONE && (info & codeOf) !== F_CODE;
}
