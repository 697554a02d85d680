/**
 * The rare shapes of a letter token (a word, a solo letter or a mark of markup) that the chunk
 * reading (readChunks, wordShapes.ts) reads apart: letters of a second script in the chunk,
 * words run together, letters of two scripts glued. The common token (a word of one script,
 * after letters of the same one or none) is read in the reading's loop itself. Case flips,
 * digits and missing vowels are left out.
 */
import * as tokenizer from '../../text/tokenizer.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import type { ChunkReading } from './chunkReading.js';
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_ALNUM, F_LOWER } = tokenizer;
const { F_NUM, K_PUNCT, KIND_MASK, SCRIPT_SHIFT } = tokens;
const { C_GLUE, C_MALFORMED } = chunks;
const { partsLabels } = shapes;
const { SC_HANGUL } = charClass;

/** Lower-case letters after which a word is glued words, and letters of any case. */
export const GLUED_LETTERS = 25;
const GLUED_ANY = 60;

/** A second script in the chunk: from here its letters are counted per script (the first one's so far are all of them). */
export function countScripts(r: ChunkReading, mask: number, script: number, add: number): void {
  const scripts = r.scripts;
  if ((mask & (mask - 1)) === 0) scripts[31 - Math.clz32(mask)] = r.letters;
  scripts[script] = scripts[script]! + add;
}

/**
 * C_MALFORMED for words run together, a word of `len` letters: 25+ lower-case letters ("brazilcanadagermany"), or 60+
 * letters whatever their case; an identifier with capitals or underscores ("EventEmitterAsyncResource",
 * "FST_ERR_DEC_ALREADY_PRESENT") is code.
 */
export function gluedWords(info: number, len: number): number {
  return (info & F_LOWER) !== 0 || (len >= GLUED_ANY && !(info & (F_ALNUM | F_NUM))) ? C_MALFORMED : 0;
}

/**
 * C_GLUE for token i, of another script than the letters before it, when glued to them: a dot, "@", "/" or ":" between
 * the two scripts parts the labels of a name (a host "食狮.com.cn", a mail address, a path), each in its own script;
 * and Korean glues its particle to a quoted or bracketed term ("'require'를", "'{0}'은(는)").
 */
export function gluedScripts(t: TokenBuffer, i: number): number {
  if (t.start[i] !== t.end[i - 1]) return 0;
  const before = t.info[i - 1]!;
  const mark = t.id[i - 1]!;
  if (partsLabels(before, mark)) return 0;
  return ((t.info[i]! >> SCRIPT_SHIFT) & 15) === SC_HANGUL && closesTerm(before, mark) ? 0 : C_GLUE;
}

/** A closing quote or bracket: ' " ` ) ] ” ’ 」 』 */
function closesTerm(info: number, id: number): boolean {
  return (
    (info & KIND_MASK) === K_PUNCT &&
    (id === 0x27 ||
      id === 0x22 ||
      id === 0x60 ||
      id === 0x29 ||
      id === 0x5d ||
      id === 0x201d ||
      id === 0x2019 ||
      id === 0x300d ||
      id === 0x300f)
  );
}
