/**
 * Char classes for reading prose by char code: letter, lower-case letter, space, CJK and the
 * ASCII marks of code words, exact for every code point (\p{L}, \p{Ll}, \s, the CJK scripts)
 * and computed once per block of 256 code points, so the split reads a line (and the identifier's
 * units are counted for CJK) without a regular expression per char.
 */

export const LETTER = 1;
export const LOWER = 2;
export const SPACE = 4;
/** Han, hiragana, katakana or hangul (\p{Script=...}): a letter that is a syllable or a word. */
export const CJK = 16;
/** Char classes per block of 256 code points, filled on first sight of the block (exact \p{L}, \p{Ll} and \s, without a regex per char). */
const blocks: Array<Uint8Array | undefined> = [];
const cpClass = new Map<number, number>();

const CJK_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** The first code point of the four CJK scripts (hangul jamo): below it a char is none of them. */
const FIRST_CJK = 0x1100;

function classify(ch: string): number {
  return (
    (/\p{L}/u.test(ch) ? LETTER : 0) | (/\p{Ll}/u.test(ch) ? LOWER : 0) | (/\s/u.test(ch) ? SPACE : 0) | (CJK_SCRIPTS.test(ch) ? CJK : 0)
  );
}

export function bmpClass(c: number): number {
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

/** The class of a code point above the BMP (cached per code point). */
export function codePointClass(cp: number): number {
  let k = cpClass.get(cp);
  if (k === undefined) {
    k = classify(String.fromCodePoint(cp));
    cpClass.set(cp, k);
  }
  return k;
}

/** The class of the code point at i, and its length in UTF-16 units (2 for a surrogate pair). */
export function classAt(s: string, i: number): [number, number] {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      return [codePointClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000), 2];
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
    // a surrogate pair is one code point (read without classAt's pair: this runs on every unit read)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (codePointClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) & LETTER) n++;
        i += 2;
        continue;
      }
    }
    if (bmpClass(c) & LETTER) n++;
    i++;
  }
  return n;
}

/**
 * Chars of s in Han, hiragana, katakana or hangul (a surrogate pair counts once), as many as the
 * regular expression of the four scripts matches, read from the tables (a unit's count made no
 * array of matches).
 */
export function cjkCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < FIRST_CJK) continue;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (codePointClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) & CJK) n++;
        i++;
        continue;
      }
    }
    if (bmpClass(c) & CJK) n++;
  }
  return n;
}

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 128 && (bmpClass(c) & SPACE) !== 0);
}

/** An ASCII word char ([A-Za-z0-9_]), for the \b before a URL. */
export function isWordChar(c: number): boolean {
  return ((c | 32) - 97) >>> 0 < 26 || (c - 48) >>> 0 < 10 || c === 95;
}

/** ASCII chars that make a word code or data: _ = { } [ ] < > $ \\ | @ ^ ~ */
export const CODE = 8;
export const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (((c | 32) - 97) >>> 0 < 26) ASCII[c] = c >= 97 ? LETTER | LOWER : LETTER;
  else if (c === 32 || (c >= 9 && c <= 13)) ASCII[c] = SPACE;
  else if ('_={}[]<>$\\|@^~'.includes(String.fromCharCode(c))) ASCII[c] = CODE;
}
