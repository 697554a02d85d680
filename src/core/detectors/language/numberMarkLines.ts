/**
 * Lines of a short output that say nothing but marks with numbers between them: each word a
 * number or a run of one mark (`48213 *** 7 ****`, `** 90123 *`), one mark to the line, and one
 * run at least that no notation writes beside numbers: three marks or more, or two that open or
 * close the line (`2 ** 10` and `3 -- 5` are an operator and a range; `* 2` is a list item).
 * A model that fell apart into digits and runs of stars writes line after line of them. A line
 * of one run after a number is a row of a chart, its label and its bar (`5 *****`, `10 *** 3`
 * with a count), and not counted. Brackets and bars are the structure of code and data (`[ 1 ]`,
 * `| 2 |`), not marks said for nothing, so a word of them is any other word. Read on the text, line by line,
 * for a short output only (the caller knows its lines); a line is read up to its first word of
 * anything else.
 */
import { isLineSpace } from '../../text/lineSpace.js';

export interface NumberMarkLines {
  /** Lines that hold a char other than whitespace. */
  lines: number;
  /** Lines of numbers and runs of one mark, as above. */
  numberMark: number;
  /** Lines of runs of marks alone (no number, no bracket, no other word). */
  marksAlone: number;
  /** Where the first of either starts (-1 when none). */
  at: number;
}

/** Per ASCII char: 1 a mark that may make a run (punctuation and symbols, brackets aside), 2 a digit, 0 anything else. */
const CLASS = new Uint8Array(128);
for (let c = 0x21; c <= 0x7e; c++) CLASS[c] = 1;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = 2;
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = 0;
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = 0;
for (const c of '{}[]()<>|') CLASS[c.charCodeAt(0)] = 0;
const MARK = 1;
const DIGIT = 2;

/** A run of this many marks is one no notation writes beside numbers: two may be an operator or a range (`**`, `--`, `==`). */
const ODD_RUN = 3;

export function readNumberMarkLines(text: string): NumberMarkLines {
  let lines = 0;
  let numberMark = 0;
  let marksAlone = 0;
  let at = -1;
  const n = text.length;
  for (let a = 0; a <= n; ) {
    let end = text.indexOf('\n', a);
    if (end < 0) end = n;
    // the line's words, one at a time: numbers, runs of marks, the one mark they are of, and whether one is odd
    let numbers = 0;
    let runs = 0;
    // whether a run came before any number: a chart's row opens with its label
    let runFirst = false;
    let mark = -1;
    let odd = false;
    let other = false;
    let filled = false;
    let first = -1;
    for (let i = a; i < end && !other; ) {
      while (i < end && isLineSpace(text.charCodeAt(i))) i++;
      if (i === end) break;
      if (!filled) {
        filled = true;
        first = i;
      }
      const w = i;
      const c0 = text.charCodeAt(i);
      const kind = c0 < 128 ? CLASS[c0]! : 0;
      while (i < end && !isLineSpace(text.charCodeAt(i))) {
        const c = text.charCodeAt(i);
        if (kind === DIGIT ? c < 0x30 || c > 0x39 : c !== c0) break;
        i++;
      }
      // a word is a number or a run of one mark only when it ends at a blank or the line's end
      if ((kind !== MARK && kind !== DIGIT) || (i < end && !isLineSpace(text.charCodeAt(i)))) {
        other = true;
        break;
      }
      if (kind === DIGIT) {
        numbers++;
        continue;
      }
      if (mark >= 0 && c0 !== mark) {
        // marks alone may mix ("-- **"); beside numbers a line keeps to one
        mark = -2;
      } else if (mark === -1) mark = c0;
      if (numbers === 0) runFirst = true;
      runs++;
      const len = i - w;
      let rest = i;
      while (rest < end && isLineSpace(text.charCodeAt(rest))) rest++;
      if (len >= ODD_RUN || (len === 2 && (w === first || rest === end))) odd = true;
    }
    if (filled) {
      lines++;
      let counted = false;
      if (!other && numbers > 0 && odd && mark >= 0 && (runs > 1 || runFirst)) {
        numberMark++;
        counted = true;
      } else if (!other && numbers === 0 && runs > 0) {
        marksAlone++;
        counted = true;
      }
      if (counted && at < 0) at = first;
    }
    a = end + 1;
  }
  return { lines, numberMark, marksAlone, at };
}
