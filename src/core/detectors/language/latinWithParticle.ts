/**
 * A Latin term with a Korean particle or ending glued on (`Promise에`, `optional이면서`,
 * `ES2022를`): Korean writes its particles onto a foreign word with no space, so such a word is
 * Korean, not letters of two scripts glued. Its letters are Latin (digits and underscores may
 * come between), then Hangul to the end: one switch. Words that switch back (`makefile삼이Meet`),
 * open in Hangul, or glue another script are still malformed; so is a Latin word with a Cyrillic
 * or Greek part, which healthy text nearly never writes and collapses write often (measured in
 * docs/detection.md, "Prose of other languages").
 */
export function latinWithParticle(text: string, from: number, to: number): boolean {
  let hangul = false;
  let latin = false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0xac00 && c <= 0xd7a3) {
      if (!latin) return false;
      hangul = true;
    } else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) {
      if (hangul) return false;
      latin = true;
    } else if (!(c >= 0x30 && c <= 0x39) && c !== 0x5f) return false;
  }
  return latin && hangul;
}
