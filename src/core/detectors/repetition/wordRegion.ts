/**
 * Is a stretch of tokens words, not code, markup or data? Two in five of its tokens are words
 * with letters (not numbers), and at most one in a hundred code punctuation (restated.ts). The
 * readings at the end of the text (the loop's region, the normalised copies, the replayed last
 * part) ask it of stretches that all run to the last token: `wordsToEnd` answers those in one
 * pass back from the end rather than one pass each.
 */
import { F_FUNC, F_NUM, isWordToken, SCRIPT_SHIFT, type TokenBuffer } from '../../text/tokens.js';
import { isCodeMark } from './restated.js';

/** A region of words: this share of its tokens are words with letters (not numbers), and under CODE_SHARE code punctuation. */
const WORD_SHARE = 0.4;
const CODE_SHARE = 0.01;

/** A word with letters, not a number. */
export function isWordLetters(info: number): boolean {
  return isWordToken(info) && ((info >> SCRIPT_SHIFT) & 15) !== 0 && !(info & F_NUM);
}

/** Does a token of [from, to) hold a function word ("the", "of", "und")? Prose does; code, markup and data hardly. */
export function hasFunctionWord(t: TokenBuffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (t.info[i]! & F_FUNC) return true;
  return false;
}

/** Are `n` tokens, of which `words` words with letters and `code` code punctuation, words? */
export function wordShare(words: number, code: number, n: number): boolean {
  return words >= WORD_SHARE * n && code <= CODE_SHARE * n;
}

export function isWordRegion(t: TokenBuffer, from: number, to: number): boolean {
  let words = 0;
  let code = 0;
  for (let i = from; i < to; i++) {
    if (isWordLetters(t.info[i]!)) words++;
    else if (isCodeMark(t, i)) code++;
  }
  return wordShare(words, code, to - from);
}

/** isWordRegion(t, a, t.n) and isWordRegion(t, b, t.n), counted in one pass back from the last token. */
export function wordsToEnd(t: TokenBuffer, a: number, b: number): [boolean, boolean] {
  const n = t.n;
  const low = Math.min(a, b);
  let words = 0;
  let code = 0;
  let atA = false;
  let atB = false;
  for (let i = n; ; ) {
    // the counts of [i, n): read at each start asked for
    if (i === a) atA = wordShare(words, code, n - a);
    if (i === b) atB = wordShare(words, code, n - b);
    if (i <= low) break;
    i--;
    if (isWordLetters(t.info[i]!)) words++;
    else if (isCodeMark(t, i)) code++;
  }
  return [atA, atB];
}
