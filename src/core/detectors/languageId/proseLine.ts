/**
 * Whether one line is prose: read once by char code, it is no prose when it is mostly symbols or
 * digits, mostly letters of code words, or a row of CSV; a URL or inline code is taken out and
 * the line read again.
 */
import { ASCII, bmpClass, CODE, codePointClass, isSpace, isWordChar, LETTER, LOWER, SPACE } from './charClasses.js';

/** Share of a line's non-space chars that are letters, below which the line is code, data or formulas. */
const LETTER_SHARE = 0.6;
/** Share of a line's letters that may sit in code words before the line reads as code or data. */
const CODE_LETTERS = 0.2;
/** Cells of a line glued to the comma or semicolon before them from which the line is a row of data (CSV), not prose. */
const GLUED_CELLS = 2;

const URL_PREFIXES = ['https://', 'http://', 'www.'];

/** The URLs of the line [from, to) of s, as pairs [start, end) in s, in order (withoutUrls reads each as one space). */
function urlSpans(s: string, from: number, to: number): number[] {
  const spans: number[] = [];
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if ((c !== 104 && c !== 119) || (i > from && isWordChar(s.charCodeAt(i - 1)))) continue;
    const p = URL_PREFIXES.find((u) => s.startsWith(u, i));
    if (p === undefined || i + p.length >= to || isSpace(s.charCodeAt(i + p.length))) continue;
    let e = i + p.length;
    while (e < to && !isSpace(s.charCodeAt(e))) e++;
    spans.push(i, e);
    i = e - 1;
  }
  return spans;
}

/** The line [from, to) of s with each of its URL spans read as one space, or the line itself when it has none. */
function withoutUrls(s: string, from: number, to: number, urls: readonly number[]): string {
  if (urls.length === 0) return s.slice(from, to);
  let out = '';
  let last = from;
  for (let k = 0; k < urls.length; k += 2) {
    out += `${s.slice(last, urls[k])} `;
    last = urls[k + 1]!;
  }
  return out + s.slice(last, to);
}

/** Why a line is no prose (judgeLine gives a prose line's letters instead, at least one). */
const NOT_PROSE = -1;
/** The line holds a URL or inline code: read again once they are taken out. */
const UNCLEAN = -2;

/**
 * Reads [from, to) of s once: its letters when it is prose; NOT_PROSE when mostly symbols or
 * digits, mostly letters in code words (identifiers joined by _ :: or a dot, calls, operators,
 * brackets, quoted keys), or a row of CSV (GLUED_CELLS words glued to a comma or semicolon);
 * UNCLEAN when `gaps` is null and it holds a URL or a backtick (NOT_PROSE first if two bars
 * come before). With `gaps` (pairs [start, end) in order, the URLs and inline code taken out)
 * the line is read as the cleaned line would be: every char of a gap as a space, which is what
 * the one space standing for it does to the counts. The cleaned line is not read itself: a
 * string built by concatenation read here made this loop's reads of the text about twice as slow
 * (measured over the real corpora), so the loop only ever reads the text.
 */
function judgeLine(s: string, from: number, to: number, gaps: readonly number[] | null): number {
  const clean = gaps !== null;
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
  // a local binding: read from the imported one, the table is looked up again on every char
  const ascii = ASCII;
  // the line read piece by piece between its gaps (one piece, the whole line, without them)
  for (let g = 0, a = from; ; g += 2) {
    const b = gaps === null || g >= gaps.length ? to : gaps[g]!;
    for (let i = a; i < b; i++) {
      const c = s.charCodeAt(i);
      let k: number;
      if (c < 128) {
        k = ascii[c]!;
        // most chars: an ASCII letter after a letter, which changes no mark below but the counts and the last chars
        // (an h or a w may start a URL: read below when the line is not clean yet)
        if (l1 && (k & LETTER) !== 0 && (clean || (c !== 104 && c !== 119))) {
          nonSpace++;
          letters++;
          wordLetters++;
          p1 = c;
          l3 = l2;
          l2 = true;
          continue;
        }
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < b && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        k = codePointClass(((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000);
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
    if (b === to) break;
    // a gap reads as a space
    if (code) codeLetters += wordLetters;
    code = false;
    wordLetters = 0;
    p1 = 0;
    l1 = l2 = l3 = false;
    a = gaps![g + 1]!;
  }
  if (code) codeLetters += wordLetters;
  if (letters === 0 || letters < LETTER_SHARE * nonSpace) return NOT_PROSE;
  if (codeLetters > CODE_LETTERS * letters) return NOT_PROSE;
  if (glued >= GLUED_CELLS) return NOT_PROSE;
  return letters;
}

/**
 * The gaps of a line that holds a URL or inline code, as judgeLine takes them, and its cleaned
 * text (each URL, then each inline code of what is left, read as one space). An inline code's
 * ends are backticks of the line, so its span in the line runs from the one to the other (over
 * any URL between them).
 */
function cleaned(s: string, from: number, to: number): { gaps: number[]; text: string } {
  const urls = urlSpans(s, from, to);
  const noUrls = withoutUrls(s, from, to, urls);
  // where char k of noUrls stands in the line: the pieces between URLs, each followed by the URL's one space; asked
  // in order, so the piece is found by walking on from the last one (a line of many URLs costs one pass)
  let j = 0;
  let start = from;
  let u = 0;
  const at = (k: number): number => {
    for (; j < urls.length && k >= u + (urls[j]! - start) + 1; j += 2) {
      u += urls[j]! - start + 1;
      start = urls[j + 1]!;
    }
    return start + (k - u);
  };
  // the inline codes: each runs from a backtick to the next one (a line holds no newline, which would end a code)
  const codes: number[] = [];
  for (let a = noUrls.indexOf('`'); a >= 0; ) {
    const b = noUrls.indexOf('`', a + 1);
    if (b < 0) break;
    codes.push(at(a), at(b) + 1);
    a = noUrls.indexOf('`', b + 1);
  }
  // both lists are in order and a URL lies inside an inline code or apart from it: merged by start, one inside another kept once
  const gaps: number[] = [];
  for (let x = 0, y = 0; x < urls.length || y < codes.length; ) {
    const fromUrls = y >= codes.length || (x < urls.length && urls[x]! < codes[y]!);
    const a = fromUrls ? urls[x]! : codes[y]!;
    const b = fromUrls ? urls[x + 1]! : codes[y + 1]!;
    if (fromUrls) x += 2;
    else y += 2;
    if (gaps.length > 0 && a < gaps[gaps.length - 1]!) gaps[gaps.length - 1] = Math.max(gaps[gaps.length - 1]!, b);
    else gaps.push(a, b);
  }
  return { gaps, text: withGapsAsSpaces(s, from, to, gaps) };
}

/**
 * The line [from, to) of s with each gap read as one space: what taking out the URLs, then the
 * inline codes of what is left, leaves (a URL inside an inline code is in its gap). Joined from
 * pieces of the text, so the prose is a flat string: the regular expression's replace gave one
 * built by concatenation, and the readers of the units it ends in (roughLanguage, the letter and
 * CJK counts) ran slower on every unit once they had read one.
 */
function withGapsAsSpaces(s: string, from: number, to: number, gaps: readonly number[]): string {
  const pieces: string[] = [];
  let last = from;
  for (let k = 0; k < gaps.length; k += 2) {
    pieces.push(s.slice(last, gaps[k]));
    last = gaps[k + 1]!;
  }
  pieces.push(s.slice(last, to));
  return pieces.join(' ');
}

/** A prose line as proseOf gives it: its text and the letters in it (the judge counted them). */
export interface LineProse {
  text: string;
  letters: number;
}

/** The trimmed line [from, to) (no newline in it) as prose, or null when it is no prose (a table row, a markup line, see judgeLine). */
export function proseOf(s: string, from: number, to: number): LineProse | null {
  const first = s.charCodeAt(from);
  if (first === 124 || first === 60) return null;
  const r = judgeLine(s, from, to, null);
  if (r > 0) return { text: s.slice(from, to), letters: r };
  if (r === NOT_PROSE) return null;
  let pipes = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 124 && ++pipes > 1) return null;
  const c = cleaned(s, from, to);
  const letters = judgeLine(s, from, to, c.gaps);
  return letters > 0 ? { text: c.text, letters } : null;
}
