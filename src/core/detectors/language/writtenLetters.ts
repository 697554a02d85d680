/**
 * How many letters a count of chars of a script writes, times two, for telling which script a
 * window of prose is mostly in (windowSums.ts), which script a text with no clause of prose to
 * open it is in (scripts.ts) and how large a unit said again inside one run of text is
 * (normalisedCopies.ts). A chunk's main script and the script a text opens in keep one letter a
 * char: counted so they lost real collapses (docs/detection.md, "Prose of other languages"). The
 * tokenizer counts one letter a char; a Hangul
 * syllable block writes two or three letters (jamo), and a Han character or a kana a syllable or
 * a word. Counted one a char, a few Latin terms outweigh the Korean or Chinese sentence around
 * them ("모든 'var'를 'const'로 바꾸세요": 7 syllables, 8 Latin letters; "开启“exactOptionalPropertyTypes”时，
 * 可选属性无法赋值为未定义": 14 characters, 26 Latin letters), which a reader reads as
 * Korean or Chinese with terms in it. Every other script writes a letter a char.
 */
import * as charClass from '../../charClass.js';

const { SC_CJK, SC_HANGUL, SC_NONE } = charClass;

const PER_CHAR = new Int32Array(32).fill(2);
PER_CHAR[SC_HANGUL] = 5;
PER_CHAR[SC_CJK] = 5;

export function writtenLetters(script: number, chars: number): number {
  return chars * PER_CHAR[script]!;
}

/**
 * The script among the bits of `mask` whose count, `counts[offset + script]`, writes the most letters (the lowest on a
 * tie); SC_NONE when none has any. Read in place: a window's sums (windowSums.ts) and a plain count per script
 * (scripts.ts) both.
 */
export function mostWritten(counts: Int32Array, offset: number, mask: number): number {
  let best = SC_NONE;
  let most = 0;
  for (let m = mask; m !== 0; m &= m - 1) {
    const s = 31 - Math.clz32(m & -m);
    const letters = counts[offset + s]! * PER_CHAR[s]!;
    if (letters > most) {
      best = s;
      most = letters;
    }
  }
  return best;
}
