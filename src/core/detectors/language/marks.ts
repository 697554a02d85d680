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
