/**
 * Words whose letters no language orders so: a Cyrillic letter followed by a lower-case Latin
 * one ("Сноopp", "прежinvoke"), or Latin and Cyrillic back and forth ("Geplaatstвенiones",
 * "Schдum"). A Russian answer glues a Cyrillic ending to a Latin name ("iPhoneа", "GPUшка") or
 * a Latin acronym to a Cyrillic name ("ЯндексGPT"): one switch, each its own way, and not
 * counted. Only the tokens the tokenizer marked as mixing scripts are read, outside code.
 */
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_CODE, F_FENCE, F_MIXSCRIPT, K_WORD, KIND_MASK } = tokens;

export interface ScriptOrderFigures {
  /** Words of prose whose Latin and Cyrillic letters no language orders so. */
  oddScriptWords: number;
  /** Where the first of them starts (-1 when none). */
  oddScriptAt: number;
}

const NONE = 0;
const LATIN = 1;
const CYRILLIC = 2;

export function readScriptOrder(t: TokenBuffer, text: string): ScriptOrderFigures {
  const { info, start, end, n } = t;
  let count = 0;
  let at = -1;
  for (let i = 0; i < n; i++) {
    const f = info[i]!;
    if ((f & F_MIXSCRIPT) === 0 || (f & KIND_MASK) !== K_WORD || (f & (F_CODE | F_FENCE)) !== 0) continue;
    if (oddScriptOrder(text, start[i]!, end[i]!)) {
      if (count === 0) at = start[i]!;
      count++;
    }
  }
  return { oddScriptWords: count, oddScriptAt: at };
}

/** Whether text[from, to) has a Cyrillic letter right before a lower-case Latin one, or switches between the two scripts twice. */
export function oddScriptOrder(text: string, from: number, to: number): boolean {
  let prev = NONE;
  let switches = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    const script = latinOrCyrillic(c);
    if (script === NONE) continue;
    if (prev !== NONE && script !== prev) {
      if (++switches >= 2) return true;
      if (prev === CYRILLIC && isLowerLatin(c)) return true;
    }
    prev = script;
  }
  return false;
}

function latinOrCyrillic(c: number): number {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) return LATIN;
  if (c < 0xc0) return NONE;
  if (c <= 0x24f) return c === 0xd7 || c === 0xf7 ? NONE : LATIN;
  if (c >= 0x400 && c <= 0x52f) return CYRILLIC;
  if (c >= 0x1e00 && c <= 0x1eff) return LATIN;
  return NONE;
}

/** A lower-case Latin letter: ASCII, or of Latin-1 and Latin Extended-A/B when it is its own lower case. */
function isLowerLatin(c: number): boolean {
  if (c >= 0x61 && c <= 0x7a) return true;
  if (c < 0xc0) return false;
  const s = String.fromCharCode(c);
  return s !== s.toUpperCase();
}
