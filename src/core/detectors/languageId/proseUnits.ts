/**
 * The prose of a text, as units a language identifier can read: paragraphs split at blank
 * lines, cut into pieces of about UNIT_CHARS, with everything that is not prose left out
 * (fenced and indented code, table rows, markup lines, lines that are mostly symbols or
 * digits, URLs and inline code). What is left is what a reader would call the answer's
 * language; code and data have no language of their own.
 */

/** One piece of prose: where it starts in the text, what it says (cleaned), and its letters. */
export interface ProseUnit {
  start: number;
  text: string;
  letters: number;
  /** True when the unit is a paragraph of one short line: a title, which opens a section of its own. */
  title: boolean;
}

/** Chars of a unit at most: the identifier reads a sentence or two at a time, so a switch inside a long paragraph shows. */
export const UNIT_CHARS = 200;
/** Share of a line's non-space chars that are letters, below which the line is code, data or formulas. */
const LETTER_SHARE = 0.6;

const FENCE = /^\s{0,3}(```|~~~)/;
/** A list item starts a unit of its own: a list of names or references is items, not one paragraph. */
const LIST_ITEM = /^\s{0,3}(?:[-*+•]|\d{1,3}[.)]|\[\d{1,3}\])\s/;
const URL = /\b(?:https?:\/\/|www\.)\S+/g;
const INLINE_CODE = /`[^`\n]*`/g;
const LETTER = /\p{L}/gu;
/** A word of code or data: identifiers joined by _ :: . or quotes, calls, operators, brackets. */
const CODE_WORD = /[_={}[\]<>$\\|@^~]|::|\p{L}{2}\.\p{Ll}|\p{L}\(|["'][:,]|[:,]["']/u;
/** Share of a line's letters that may sit in code words before the line reads as code or data. */
const CODE_LETTERS = 0.2;
const NON_SPACE = /\S/gu;

function count(re: RegExp, s: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(s)) n++;
  return n;
}

/** The line as prose, or null when it is no prose (table row, markup, mostly symbols). */
function proseOf(line: string): string | null {
  const t = line.trim();
  if (t.startsWith('|') || t.startsWith('<') || t.split('|').length > 2) return null;
  const clean = t.replace(URL, ' ').replace(INLINE_CODE, ' ');
  const letters = count(LETTER, clean);
  if (letters === 0 || letters < LETTER_SHARE * count(NON_SPACE, clean)) return null;
  let codeLetters = 0;
  for (const word of clean.replace(/\*+/g, '').split(/\s+/)) if (CODE_WORD.test(word)) codeLetters += count(LETTER, word);
  if (codeLetters > CODE_LETTERS * letters) return null;
  return clean;
}

/** Chars of a one-line paragraph at most that reads as a title. */
const TITLE_CHARS = 80;

/** Cuts a paragraph into units of about UNIT_CHARS, at a space when there is one. */
function cut(start: number, text: string, lines: number, out: ProseUnit[]): void {
  const title = lines === 1 && text.length <= TITLE_CHARS && !/[.,;]$/.test(text);
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + UNIT_CHARS);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > at + UNIT_CHARS / 2) end = space;
    }
    const piece = text.slice(at, end).trim();
    if (piece.length > 0) out.push({ start: start + at, text: piece, letters: count(LETTER, piece), title });
    at = end;
  }
}

/** The prose units of a text, in order. */
export function proseUnits(text: string): ProseUnit[] {
  const out: ProseUnit[] = [];
  let fenced = false;
  let para = '';
  let paraStart = -1;
  let lines = 0;
  const flush = () => {
    if (para.length > 0) cut(paraStart, para, lines, out);
    para = '';
    paraStart = -1;
    lines = 0;
  };
  let pos = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const line = text.slice(pos, nl);
    if (FENCE.test(line)) {
      fenced = !fenced;
      flush();
    } else if (fenced || line.trim() === '' || /^( {4}|\t)/.test(line)) {
      flush();
    } else {
      const prose = proseOf(line);
      if (prose === null) flush();
      else {
        if (LIST_ITEM.test(line)) flush();
        if (paraStart < 0) paraStart = pos;
        para = para.length > 0 ? `${para} ${prose}` : prose;
        lines++;
      }
    }
    pos = nl + 1;
  }
  flush();
  return out;
}
