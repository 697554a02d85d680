/**
 * ASCII marks as the chunk reading sorts them (by char code): sentence marks, clause marks, code
 * punctuation. The usual pairs are rows of test/core/detectors/languageReadings.test.ts.
 */

/**
 * Two marks that prose and code write together: "?!" and "!?", an abbreviation's dot before
 * , ; or : ("etc.,"), and the operators ?: ?. ?? :: ("name?: string", "a?.b", "a ?? b", "std::vector").
 */
export function isUsualPair(pair: number): boolean {
  const a = pair >> 8;
  const b = pair & 0xff;
  if (a === 0x2e) return b === 0x2c || b === 0x3b || b === 0x3a;
  if (a === 0x3f) return b === 0x21 || b === 0x3a || b === 0x2e || b === 0x3f;
  return (a === 0x21 && b === 0x3f) || (a === 0x3a && b === 0x3a);
}

/** ( ) [ ] { } " ': with one, a chunk of punctuation alone is code or data ("},", "()") or names a mark (","). */
export function isBracketOrQuote(id: number): boolean {
  return id === 0x28 || id === 0x29 || id === 0x5b || id === 0x5d || id === 0x7b || id === 0x7d || id === 0x22 || id === 0x27;
}

/** , . ; : ! ? */
export function isSentenceMark(id: number): boolean {
  return id === 0x2c || id === 0x2e || id === 0x3b || id === 0x3a || id === 0x21 || id === 0x3f;
}

export function isClausePunct(id: number): boolean {
  return id === 0x2c || id === 0x3b || id === 0x22 || id === 0x21 || id === 0x3f;
}

/** Chars of code, markup, paths and anchors: { } ( ) [ ] ; = < > | \ # / @ $ % & * ^ ~ ` */
const CODE_PUNCT = new Uint8Array(128);
for (const c of '{}()[];=<>|\\#/@$%&*^~`') CODE_PUNCT[c.charCodeAt(0)] = 1;

export function isCodePunct(id: number): boolean {
  return id < 128 && CODE_PUNCT[id] === 1;
}

/** Dots in a row that make an ellipsis, not a mark doubled. */
const ELLIPSIS_DOTS = 3;
/** Bits of what the chunk's runs of marks left: punctuation where no language puts it; a comma or a dot no ellipsis. */
export const RUN_NOISY = 1;
export const RUN_LOOSE = 2;

/** What a run of sentence marks that ended leaves on its chunk: RUN_NOISY, RUN_LOOSE, both or neither. */
export function runMarks(run: number, dots: number, commas: number, colons: number, pair: number): number {
  const ellipsis = dots === run && run >= ELLIPSIS_DOTS;
  let m = 0;
  // colons alone are code, addresses and drawings ("std::", "::1", ":::@@#"), never prose
  if (run >= 2 && !ellipsis && colons < run && !(run === 2 && isUsualPair(pair))) m |= RUN_NOISY;
  if (commas > 0 || (dots > 0 && !ellipsis)) m |= RUN_LOOSE;
  return m;
}

/** A mark of CJK writing (、。「」『』【】 and the full-width forms ，：；！？（）): no space follows it in the prose that uses it. */
export function isCjkMark(c: number): boolean {
  return (c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff65);
}

/**
 * A mark that parts the syllables or words of a script written with no space between them, as a space does: the
 * Tibetan tsheg and shad (U+0F0B-U+0F14: Dzongkha and Tibetan glue a Latin term after the syllable mark,
 * `apt-get་དུས་`) and the Ethiopic wordspace (U+1361).
 */
export function isSyllableMark(c: number): boolean {
  return (c >= 0x0f0b && c <= 0x0f14) || c === 0x1361;
}
