/**
 * The prose of a text, as paragraphs a language identifier can read: split at blank lines,
 * each list item a paragraph of its own, with everything that is not prose left out (fenced and
 * indented code, table rows, markup lines, lines that are mostly symbols, digits or code words,
 * URLs and inline code). What is left is what a reader would call the answer's language; code
 * and data have no language of their own. One pass over the lines with char-code checks (no
 * regular expression per line: the split reads every byte of every answer, the identifier only
 * a few paragraphs), so it costs a few milliseconds per MB.
 */

/** One prose paragraph: where it starts in the text, what it says (cleaned, lines joined by a space), and its lines. */
export interface ProseParagraph {
  start: number;
  text: string;
  lines: number;
  /** True when it is one short line that does not end as a sentence: a title, which opens a section of its own. */
  title: boolean;
}

/** One piece of a paragraph, as the identifier reads it. */
export interface ProseUnit {
  start: number;
  text: string;
}

/** Chars of a unit at most: the identifier reads a sentence or two at a time, so a switch inside a long paragraph shows. */
export const UNIT_CHARS = 200;
/** Share of a line's non-space chars that are letters, below which the line is code, data or formulas. */
const LETTER_SHARE = 0.6;
/** Share of a line's letters that may sit in code words before the line reads as code or data. */
const CODE_LETTERS = 0.2;
/** Cells of a line glued to the comma or semicolon before them from which the line is a row of data (CSV), not prose. */
const GLUED_CELLS = 2;
/** Chars of a one-line paragraph at most that reads as a title. */
const TITLE_CHARS = 80;

const LETTER = 1;
const LOWER = 2;
const SPACE = 4;
/** Char classes per block of 256 code points, filled on first sight of the block (exact \p{L}, \p{Ll} and \s, without a regex per char). */
const blocks: Array<Uint8Array | undefined> = [];
const cpClass = new Map<number, number>();

function classify(ch: string): number {
  return (/\p{L}/u.test(ch) ? LETTER : 0) | (/\p{Ll}/u.test(ch) ? LOWER : 0) | (/\s/u.test(ch) ? SPACE : 0);
}

function bmpClass(c: number): number {
  const hi = c >> 8;
  let b = blocks[hi];
  if (b === undefined) {
    b = new Uint8Array(256);
    for (let k = 0; k < 256; k++) {
      const code = (hi << 8) | k;
      // a lone surrogate is no letter (a pair is classified as one code point)
      if (code < 0xd800 || code > 0xdfff) b[k] = classify(String.fromCharCode(code));
    }
    blocks[hi] = b;
  }
  return b[c & 255]!;
}

/** The class of the code point at i, and its length in UTF-16 units (2 for a surrogate pair). */
function classAt(s: string, i: number): [number, number] {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      let k = cpClass.get(cp);
      if (k === undefined) {
        k = classify(String.fromCodePoint(cp));
        cpClass.set(cp, k);
      }
      return [k, 2];
    }
  }
  return [bmpClass(c), 1];
}

/** Letters (\p{L} code points) of a string. */
export function letterCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (((c | 32) - 97) >>> 0 < 26) n++;
      i++;
      continue;
    }
    const [k, len] = classAt(s, i);
    if (k & LETTER) n++;
    i += len;
  }
  return n;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 128 && (bmpClass(c) & SPACE) !== 0);
}

/** An ASCII word char ([A-Za-z0-9_]), for the \b before a URL. */
function isWordChar(c: number): boolean {
  return ((c | 32) - 97) >>> 0 < 26 || (c - 48) >>> 0 < 10 || c === 95;
}

/** True when a list marker starts at i and a space follows it: -, *, +, •, 1. 1) [1] */
function listMarker(s: string, i: number, end: number): boolean {
  const c = s.charCodeAt(i);
  let j = i;
  if (c === 45 || c === 42 || c === 43 || c === 0x2022) j = i + 1;
  else if (c === 91) {
    let d = i + 1;
    while (d < end && d - i <= 3 && (s.charCodeAt(d) - 48) >>> 0 < 10) d++;
    if (d === i + 1 || d - i > 4 || s.charCodeAt(d) !== 93) return false;
    j = d + 1;
  } else {
    let d = i;
    while (d < end && d - i < 3 && (s.charCodeAt(d) - 48) >>> 0 < 10) d++;
    if (d === i) return false;
    const p = s.charCodeAt(d);
    if (p !== 46 && p !== 41) return false;
    j = d + 1;
  }
  return j < end && isSpace(s.charCodeAt(j));
}

const URL_PREFIXES = ['https://', 'http://', 'www.'];

/** The line [from, to) without URLs (a URL reads as one space), or the trimmed line itself when it has none. */
function withoutUrls(s: string, from: number, to: number): string {
  let out = '';
  let last = from;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if ((c !== 104 && c !== 119) || (i > from && isWordChar(s.charCodeAt(i - 1)))) continue;
    const p = URL_PREFIXES.find((u) => s.startsWith(u, i));
    if (p === undefined || i + p.length >= to || isSpace(s.charCodeAt(i + p.length))) continue;
    let e = i + p.length;
    while (e < to && !isSpace(s.charCodeAt(e))) e++;
    out += `${s.slice(last, i)} `;
    last = e;
    i = e - 1;
  }
  return last === from ? s.slice(from, to) : out + s.slice(last, to);
}

const INLINE_CODE = /`[^`\n]*`/g;
/** ASCII chars that make a word code or data: _ = { } [ ] < > $ \\ | @ ^ ~ */
const CODE = 8;
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (((c | 32) - 97) >>> 0 < 26) ASCII[c] = c >= 97 ? LETTER | LOWER : LETTER;
  else if (c === 32 || (c >= 9 && c <= 13)) ASCII[c] = SPACE;
  else if ('_={}[]<>$\\|@^~'.includes(String.fromCharCode(c))) ASCII[c] = CODE;
}

/** Why a line is no prose, or PROSE. */
const PROSE = 0;
const NOT_PROSE = 1;
/** The line holds a URL or inline code: read again once they are taken out. */
const UNCLEAN = 2;

/**
 * Reads [from, to) of s once: NOT_PROSE when mostly symbols or digits, mostly letters in code
 * words (identifiers joined by _ :: or a dot, calls, operators, brackets, quoted keys), or a
 * row of CSV (GLUED_CELLS words glued to a comma or semicolon);
 * UNCLEAN when `clean` is false and it holds a URL or a backtick (NOT_PROSE first if two bars
 * come before).
 */
function judgeLine(s: string, from: number, to: number, clean: boolean): number {
  let letters = 0;
  let nonSpace = 0;
  let codeLetters = 0;
  let wordLetters = 0;
  let pipes = 0;
  let glued = 0;
  let code = false;
  // the word's last char (stars skipped: the word is read without them) and whether each of its last three is a letter
  let p1 = 0;
  let l1 = false;
  let l2 = false;
  let l3 = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    let k: number;
    if (c < 128) k = ASCII[c]!;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      let m = cpClass.get(cp);
      if (m === undefined) {
        m = classify(String.fromCodePoint(cp));
        cpClass.set(cp, m);
      }
      k = m;
      i++;
    } else k = bmpClass(c);
    if (k & SPACE) {
      if (code) codeLetters += wordLetters;
      code = false;
      wordLetters = 0;
      p1 = 0;
      l1 = l2 = l3 = false;
      continue;
    }
    nonSpace++;
    if (c === 42) continue;
    if (!clean) {
      // a table row (two bars) is data, wherever its bars stand
      if (c === 124 && ++pipes > 1) return NOT_PROSE;
      if (c === 96) return UNCLEAN;
      if (
        (c === 104 || c === 119) &&
        (i === from || !isWordChar(s.charCodeAt(i - 1))) &&
        (s.startsWith('http', i) || s.startsWith('www.', i))
      )
        return UNCLEAN;
    }
    const letter = (k & LETTER) !== 0;
    // a comma or semicolon with a Latin letter right after it: prose puts a space there, a row of CSV does not
    // (Chinese prose may write ASCII commas without a space: only ASCII letters count)
    if (c < 128 && letter && (p1 === 44 || p1 === 59)) glued++;
    if (letter) {
      letters++;
      wordLetters++;
    }
    if (!code) {
      if (k & CODE) code = true;
      else if (c === 58 && p1 === 58) code = true;
      else if (k & LOWER && p1 === 46 && l2 && l3) code = true;
      else if (c === 40 && l1) code = true;
      else if ((c === 58 || c === 44) && (p1 === 34 || p1 === 39)) code = true;
      else if ((c === 34 || c === 39) && (p1 === 58 || p1 === 44)) code = true;
    }
    p1 = c;
    l3 = l2;
    l2 = l1;
    l1 = letter;
  }
  if (code) codeLetters += wordLetters;
  if (letters === 0 || letters < LETTER_SHARE * nonSpace) return NOT_PROSE;
  if (codeLetters > CODE_LETTERS * letters) return NOT_PROSE;
  if (glued >= GLUED_CELLS) return NOT_PROSE;
  return PROSE;
}

/** The trimmed line [from, to) as prose, or null when it is no prose (a table row, a markup line, see judgeLine). */
function proseOf(s: string, from: number, to: number): string | null {
  const first = s.charCodeAt(from);
  if (first === 124 || first === 60) return null;
  const r = judgeLine(s, from, to, false);
  if (r === PROSE) return s.slice(from, to);
  if (r === NOT_PROSE) return null;
  let pipes = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 124 && ++pipes > 1) return null;
  const clean = withoutUrls(s, from, to).replace(INLINE_CODE, ' ');
  return judgeLine(clean, 0, clean.length, true) === PROSE ? clean : null;
}

/** A run of lines between blank lines, fences, indented code and list items: one or more paragraphs once read. */
export interface LineBlock {
  from: number;
  /** End of its last line (before the newline). */
  to: number;
  /** True when it is one line that may be a title: at most TITLE_CHARS chars, not ending in . , or ; */
  titleLike: boolean;
}

function firstNonSpace(text: string, pos: number, end: number): number {
  while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

function lastNonSpace(text: string, a: number, end: number): number {
  while (end > a && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

function isFence(text: string, pos: number, a: number): boolean {
  const c = text.charCodeAt(a);
  return a - pos <= 3 && (c === 96 || c === 126) && text.charCodeAt(a + 1) === c && text.charCodeAt(a + 2) === c;
}

function endsSentence(c: number): boolean {
  return c === 46 || c === 44 || c === 59;
}

/**
 * The blocks of a text, in order: one pass over its lines that reads only where each starts
 * (fence, indentation, blank, list marker), so the chars of a line are read only when its block
 * is (blockParagraphs).
 */
export function lineBlocks(text: string): LineBlock[] {
  const out: LineBlock[] = [];
  let fenced = false;
  let from = -1;
  let to = -1;
  let lines = 0;
  const close = () => {
    if (from >= 0) {
      let titleLike = false;
      if (lines === 1) {
        const a = firstNonSpace(text, from, to);
        const b = lastNonSpace(text, a, to);
        titleLike = b - a <= TITLE_CHARS && !endsSentence(text.charCodeAt(b - 1));
      }
      out.push({ from, to, titleLike });
    }
    from = -1;
    lines = 0;
  };
  let pos = 0;
  while (pos <= text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const a = firstNonSpace(text, pos, nl);
    if (isFence(text, pos, a)) {
      fenced = !fenced;
      close();
    } else if (fenced || a === nl || text.charCodeAt(pos) === 9 || text.startsWith('    ', pos)) {
      close();
    } else {
      if (a - pos <= 3 && listMarker(text, a, nl)) close();
      if (from < 0) from = pos;
      to = nl;
      lines++;
    }
    pos = nl + 1;
  }
  close();
  return out;
}

/**
 * True when the line at a is a comment of code: a shebang, a // line, or a # line in a block of
 * several lines. Such comments say what the code does in whatever language the code was written,
 * not the answer's (measured: a German article ending in a shell script with English comments
 * failed).
 */
function isComment(text: string, a: number, several: boolean): boolean {
  const c = text.charCodeAt(a);
  const d = text.charCodeAt(a + 1);
  if (c === 35) return several || d === 33;
  return c === 47 && d === 47;
}

/** The prose paragraphs of one block: its lines read as prose or not, a line that is not splitting it. */
export function blockParagraphs(text: string, block: LineBlock): ProseParagraph[] {
  const out: ProseParagraph[] = [];
  let para = '';
  let paraStart = -1;
  let lines = 0;
  const flush = () => {
    if (para.length > 0) {
      const title = lines === 1 && para.length <= TITLE_CHARS && !endsSentence(para.charCodeAt(para.length - 1));
      out.push({ start: paraStart, text: para, lines, title });
    }
    para = '';
    paraStart = -1;
    lines = 0;
  };
  // a # line among others is a comment of unfenced code (shell, Python, YAML); a heading stands on a line of its own
  const lines1 = text.indexOf('\n', block.from);
  const several = lines1 >= 0 && lines1 < block.to;
  let pos = block.from;
  while (pos <= block.to) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0 || nl > block.to) nl = block.to;
    const a = firstNonSpace(text, pos, nl);
    const prose = isComment(text, a, several) ? null : proseOf(text, a, lastNonSpace(text, a, nl));
    if (prose === null) flush();
    else {
      if (paraStart < 0) paraStart = pos;
      para = para.length > 0 ? `${para} ${prose}` : prose;
      lines++;
    }
    pos = nl + 1;
  }
  flush();
  return out;
}

/** The prose paragraphs of a whole text, in order (every block read: the detector reads only the blocks it needs). */
export function proseParagraphs(text: string): ProseParagraph[] {
  return lineBlocks(text).flatMap((b) => blockParagraphs(text, b));
}

/** The paragraph cut into units of about UNIT_CHARS, at a space when there is one; at most `max` from its start. */
export function paragraphUnits(p: ProseParagraph, max = Number.POSITIVE_INFINITY): ProseUnit[] {
  const out: ProseUnit[] = [];
  const text = p.text;
  let at = 0;
  while (at < text.length && out.length < max) {
    let end = Math.min(text.length, at + UNIT_CHARS);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > at + UNIT_CHARS / 2) end = space;
    }
    const piece = text.slice(at, end).trim();
    if (piece.length > 0) out.push({ start: p.start + at, text: piece });
    at = end;
  }
  return out;
}
