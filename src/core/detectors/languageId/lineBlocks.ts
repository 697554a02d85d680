/**
 * A text's lines grouped into blocks, the first step of reading its prose (proseUnits.ts): runs
 * of lines between blank lines, fences, indented code and list items, each found with char-code
 * checks in one pass over the line starts.
 */
import { isSpace } from './charClasses.js';

/** Chars of a one-line paragraph at most that reads as a title. */
export const TITLE_CHARS = 80;

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

/** A run of lines between blank lines, fences, indented code and list items: one or more paragraphs once read. */
export interface LineBlock {
  from: number;
  /** End of its last line (before the newline). */
  to: number;
  /** True when it is one line that may be a title: at most TITLE_CHARS chars, not ending in . , or ; */
  titleLike: boolean;
}

export function firstNonSpace(text: string, pos: number, end: number): number {
  while (pos < end && isSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

export function lastNonSpace(text: string, a: number, end: number): number {
  while (end > a && isSpace(text.charCodeAt(end - 1))) end--;
  return end;
}

function isFence(text: string, pos: number, a: number): boolean {
  const c = text.charCodeAt(a);
  return a - pos <= 3 && (c === 96 || c === 126) && text.charCodeAt(a + 1) === c && text.charCodeAt(a + 2) === c;
}

export function endsSentence(c: number): boolean {
  return c === 46 || c === 44 || c === 59;
}

/**
 * The blocks of a text, in order: one pass over its lines that reads only where each starts
 * (fence, indentation, blank, list marker), so the chars of a line are read only when its block
 * is (blockParagraphs). The common line (a non-space ASCII char first, no fence) is told from the
 * first char alone, and the block going on is state in locals, not in a closure (this runs over
 * every line start of every text).
 */
export function lineBlocks(text: string): LineBlock[] {
  const out: LineBlock[] = [];
  const space = isSpace;
  const n = text.length;
  let fenced = false;
  let from = -1;
  let to = -1;
  let lines = 0;
  for (let pos = 0; pos <= n; ) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = n;
    const c = text.charCodeAt(pos);
    // a line that opens with an ASCII char other than a space, a backtick or a tilde: no fence, no blank, no indentation
    let a = pos;
    let plain = c > 32 && c < 128 && c !== 96 && c !== 126;
    if (!plain) {
      while (a < nl && space(text.charCodeAt(a))) a++;
      if (isFence(text, pos, a)) {
        fenced = !fenced;
        if (from >= 0) out.push(block(text, from, to, lines));
        from = -1;
        lines = 0;
        pos = nl + 1;
        continue;
      }
      plain = !(a === nl || c === 9 || text.startsWith('    ', pos));
    }
    if (fenced || !plain) {
      if (from >= 0) out.push(block(text, from, to, lines));
      from = -1;
      lines = 0;
    } else {
      if (a - pos <= 3 && listMarker(text, a, nl) && from >= 0) {
        out.push(block(text, from, to, lines));
        from = -1;
        lines = 0;
      }
      if (from < 0) from = pos;
      to = nl;
      lines++;
    }
    pos = nl + 1;
  }
  if (from >= 0) out.push(block(text, from, to, lines));
  return out;
}

/** The block of `lines` lines [from, to): one line of at most TITLE_CHARS chars not ending in . , or ; may be a title. */
function block(text: string, from: number, to: number, lines: number): LineBlock {
  let titleLike = false;
  if (lines === 1) {
    const a = firstNonSpace(text, from, to);
    const b = lastNonSpace(text, a, to);
    titleLike = b - a <= TITLE_CHARS && !endsSentence(text.charCodeAt(b - 1));
  }
  return { from, to, titleLike };
}
