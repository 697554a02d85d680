/**
 * A token of letters (or digits) of the chunk being read: its letters counted per script, its
 * word hashed into the chunk's key, and the shapes no language writes a word in (letters of two
 * scripts glued, words run together). Case flips, digits and missing vowels are left out.
 */
import * as tokenizer from '../../text/tokenizer.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import * as charClass from '../../charClass.js';
import type { ChunkReading } from './chunkReading.js';
import * as chunks from './chunks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_ALNUM, F_LOWER } = tokenizer;
const { F_FUNC, F_MIXSCRIPT, F_NUM, K_SOLO, K_WORD, KIND_MASK, SCRIPT_SHIFT } = tokens;
const { SC_NONE } = charClass;
const { C_BREAK, C_CASED, C_FUNC, C_GLUE, C_MALFORMED } = chunks;
const { partsLabels } = shapes;

/** Lower-case letters after which a word is glued words, and letters of any case. */
const GLUED_LETTERS = 25;
const GLUED_ANY = 60;

/** The bits of the token flags read into chunk flags. */
const BIT_F_FUNC = 31 - Math.clz32(F_FUNC);
const BIT_F_LOWER = 31 - Math.clz32(F_LOWER);
const BIT_C_FUNC = 31 - Math.clz32(C_FUNC);
const BIT_C_CASED = 31 - Math.clz32(C_CASED);

/** Reads token i (`info`: its flags), a word, a solo letter or a mark of markup, into `r`. */
export function readLetters(r: ChunkReading, t: TokenBuffer, i: number, info: number): void {
  // the common token (a word of one script, after letters of the same one or none) goes through this function alone,
  // kept small enough for the reading's loop to take it in; the rare shapes are read apart
  const k = info & KIND_MASK;
  const script = (info >> SCRIPT_SHIFT) & 15;
  if (script === SC_NONE) {
    if (k === K_WORD) r.digits = true;
    return;
  }
  const len = t.end[i]! - t.start[i]!;
  r.key = Math.imul(r.key ^ t.id[i]!, 0x01000193);
  const add = k === K_SOLO ? 1 : len;
  const bit = 1 << script;
  const mask = r.scriptMask;
  if (mask !== bit && mask !== 0) countScripts(r, mask, script, add);
  r.letters += add;
  r.scriptMask = mask | bit;
  // set from the token's bits, not by a branch: whether a word is a function word or has a capital is as good as random
  // to the processor
  let flags = (r.flags & ~C_BREAK) | (((info >> BIT_F_FUNC) & 1) << BIT_C_FUNC);
  if (k === K_WORD) {
    flags |= ((~info >> BIT_F_LOWER) & 1) << BIT_C_CASED;
    if (len >= GLUED_LETTERS) flags |= gluedWords(info, len);
  }
  // case flips ("ErrNotFound", "PropTech"), digits in words ("uint64", "mp3") and abbreviations without vowels ("npm",
  // "html") are names in code and tech prose: not counted
  if (info & F_MIXSCRIPT) flags |= C_MALFORMED;
  const prev = r.prevScript;
  if (prev !== SC_NONE && script !== prev) flags |= gluedScripts(t, i);
  r.flags = flags;
  r.prevScript = script;
}

/** A second script in the chunk: from here its letters are counted per script (the first one's so far are all of them). */
function countScripts(r: ChunkReading, mask: number, script: number, add: number): void {
  const scripts = r.scripts;
  if ((mask & (mask - 1)) === 0) scripts[31 - Math.clz32(mask)] = r.letters;
  scripts[script] = scripts[script]! + add;
}

/**
 * C_MALFORMED for words run together, a word of `len` letters: 25+ lower-case letters ("brazilcanadagermany"), or 60+
 * letters whatever their case; an identifier with capitals or underscores ("EventEmitterAsyncResource",
 * "FST_ERR_DEC_ALREADY_PRESENT") is code.
 */
function gluedWords(info: number, len: number): number {
  return (info & F_LOWER) !== 0 || (len >= GLUED_ANY && !(info & (F_ALNUM | F_NUM))) ? C_MALFORMED : 0;
}

/**
 * C_GLUE for token i, of another script than the letters before it, when glued to them: a dot, "@", "/" or ":" between
 * the two scripts parts the labels of a name (a host "食狮.com.cn", a mail address, a path), each in its own script.
 */
function gluedScripts(t: TokenBuffer, i: number): number {
  return t.start[i] === t.end[i - 1] && !partsLabels(t.info[i - 1]!, t.id[i - 1]!) ? C_GLUE : 0;
}
