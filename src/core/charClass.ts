/**
 * Character classes for the analyzer's single pass. Pure lookup, cached per BMP
 * code point so the hot loop does one array read per char.
 */

export const CH_SPACE = 1;
/** Letter, digit, mark or underscore of a script that separates words with spaces. */
export const CH_WORD = 2;
/** A letter of a script written without spaces (Han, kana, Thai...): one char = one word. */
export const CH_SOLO = 3;
/** Punctuation, symbols, emoji, controls: one char = one token. */
export const CH_PUNCT = 4;

/** Script groups used for script-switch and mixing detection (0 = not a letter). */
export const SC_NONE = 0;
export const SC_LATIN = 1;
export const SC_GREEK = 2;
export const SC_CYRILLIC = 3;
export const SC_ARMENIAN = 4;
export const SC_HEBREW = 5;
export const SC_ARABIC = 6;
export const SC_INDIC = 7;
export const SC_THAI = 8;
export const SC_GEORGIAN = 9;
export const SC_HANGUL = 10;
export const SC_CJK = 11;
export const SC_OTHER = 12;
export const SCRIPT_COUNT = 13;
export const SCRIPT_NAMES = [
  'none',
  'latin',
  'greek',
  'cyrillic',
  'armenian',
  'hebrew',
  'arabic',
  'indic',
  'thai',
  'georgian',
  'hangul',
  'cjk',
  'other',
] as const;

const classCache = new Uint8Array(65536);
const scriptCache = new Uint8Array(65536);
const astralCache = new Map<number, number>();

const LETTERISH = /^[\p{L}\p{M}\p{N}_]$/u;
const SPACE = /^\s$/u;

/**
 * Latin letters of the blocks past Latin Extended-B (U+0250 on): IPA Extensions, which
 * alphabets of living languages write with (Azerbaijani `ə`, the `ɛ` and `ɔ` of Akan, Ewe or
 * Lingala), Latin Extended Additional (Vietnamese, Welsh), Extended-C, -D and -E (Uralic and
 * Mesoamerican orthographies) and the full-width forms.
 */
export function isLatinPastB(cp: number): boolean {
  return (
    (cp >= 0x250 && cp <= 0x2af) ||
    (cp >= 0x1e00 && cp <= 0x1eff) ||
    (cp >= 0x2c60 && cp <= 0x2c7f) ||
    (cp >= 0xa720 && cp <= 0xa7ff) ||
    (cp >= 0xab30 && cp <= 0xab6f) ||
    (cp >= 0xff21 && cp <= 0xff5a)
  );
}

/**
 * Spacing modifier letters (U+02B0-U+02FF: `ʻ`, `ʼ`, `ˈ`, `ː`) are written inside words of several scripts (Uzbek
 * `Oʻzbekiston`, a Ukrainian apostrophe, Hawaiian `Hawaiʻi`, phonetic length): of no script, like a combining mark, so
 * a word keeps the script of its letters.
 */
function isModifierLetter(cp: number): boolean {
  return cp >= 0x2b0 && cp <= 0x2ff;
}

function scriptOf(cp: number): number {
  if (cp < 0x250 || isLatinPastB(cp)) return SC_LATIN;
  if (cp >= 0x370 && cp <= 0x3ff) return SC_GREEK;
  if (cp >= 0x1f00 && cp <= 0x1fff) return SC_GREEK;
  if (cp >= 0x400 && cp <= 0x52f) return SC_CYRILLIC;
  if (cp >= 0x530 && cp <= 0x58f) return SC_ARMENIAN;
  if (cp >= 0x590 && cp <= 0x5ff) return SC_HEBREW;
  if ((cp >= 0x600 && cp <= 0x6ff) || (cp >= 0x750 && cp <= 0x77f) || (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff))
    return SC_ARABIC;
  if (cp >= 0x900 && cp <= 0xdff) return SC_INDIC;
  if (cp >= 0xe00 && cp <= 0xeff) return SC_THAI;
  if (cp >= 0x10a0 && cp <= 0x10ff) return SC_GEORGIAN;
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xac00 && cp <= 0xd7af)) return SC_HANGUL;
  if (
    (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x31f0 && cp <= 0x31ff) ||
    (cp >= 0xff66 && cp <= 0xff9f) ||
    (cp >= 0x20000 && cp <= 0x3ffff)
  )
    return SC_CJK;
  return SC_OTHER;
}

/** Scripts whose text has no spaces between words: each letter is its own token. */
function isSolo(script: number): boolean {
  return script === SC_CJK || script === SC_THAI;
}

function compute(cp: number): [number, number] {
  const ch = String.fromCodePoint(cp);
  if (SPACE.test(ch)) return [CH_SPACE, SC_NONE];
  if (LETTERISH.test(ch)) {
    if (cp >= 0x30 && cp <= 0x39) return [CH_WORD, SC_NONE];
    if (cp === 0x5f) return [CH_WORD, SC_NONE];
    if (/^\p{N}$/u.test(ch)) return [CH_WORD, SC_NONE];
    const script = scriptOf(cp);
    return [isSolo(script) ? CH_SOLO : CH_WORD, /^\p{M}$/u.test(ch) || isModifierLetter(cp) ? SC_NONE : script];
  }
  return [CH_PUNCT, SC_NONE];
}

/** Class of a BMP code unit (not a surrogate). */
export function classOf(code: number): number {
  let c = classCache[code]!;
  if (c === 0) {
    const [k, s] = compute(code);
    classCache[code] = k;
    scriptCache[code] = s;
    c = k;
  }
  return c;
}

/** Script group of a BMP code unit; call classOf first. */
export function scriptOfCode(code: number): number {
  return scriptCache[code]!;
}

/** Class and script of an astral code point, packed as class * 16 + script. */
export function astralInfo(cp: number): number {
  let v = astralCache.get(cp);
  if (v === undefined) {
    const [k, s] = compute(cp);
    v = k * 16 + s;
    astralCache.set(cp, v);
  }
  return v;
}

/**
 * Chars that healthy model output almost never contains: the replacement char,
 * C0/C1 controls other than tab/newline/CR, private-use code points.
 */
export function isOddCode(code: number): boolean {
  if (code < 0x20) return code !== 9 && code !== 10 && code !== 13;
  if (code >= 0x7f && code < 0xa0) return true;
  if (code === 0xfffd) return true;
  return code >= 0xe000 && code <= 0xf8ff;
}

/** Sentence-final punctuation, ASCII and fullwidth/CJK. */
export function isSentenceEnd(code: number): boolean {
  return (
    code === 0x2e ||
    code === 0x21 ||
    code === 0x3f ||
    code === 0x3002 ||
    code === 0xff01 ||
    code === 0xff1f ||
    code === 0x2026 ||
    code === 0x0964
  );
}

/** Latin vowels (ASCII and common accented), for gibberish detection. */
export function isLatinVowel(code: number): boolean {
  switch (code | 0x20) {
    case 0x61:
    case 0x65:
    case 0x69:
    case 0x6f:
    case 0x75:
    case 0x79:
      return code < 0x80;
    default:
      return (
        (code >= 0xe0 && code <= 0xe6) ||
        (code >= 0xe8 && code <= 0xef) ||
        (code >= 0xf2 && code <= 0xf6) ||
        (code >= 0xf9 && code <= 0xfc) ||
        (code >= 0xc0 && code <= 0xc6) ||
        (code >= 0xc8 && code <= 0xcf) ||
        (code >= 0xd2 && code <= 0xd6) ||
        (code >= 0xd9 && code <= 0xdc)
      );
  }
}
