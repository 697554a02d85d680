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
import * as marks from './marks.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_ALNUM, F_LOWER } = tokenizer;
const { F_NUM, K_PUNCT, KIND_MASK, SCRIPT_SHIFT } = tokens;
const { C_GLUE, C_LONG, C_MALFORMED } = chunks;
const { partsLabels } = shapes;
const { SC_ARABIC, SC_ARMENIAN, SC_CYRILLIC, SC_GEORGIAN, SC_GREEK, SC_HEBREW, SC_INDIC, SC_LATIN } = charClass;
const { isCjkMark, isSyllableMark } = marks;

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
 * C_MALFORMED for words run together, the word text[from, to) of `len` chars: 25+ lower-case letters
 * ("brazilcanadagermany"; with C_LONG, which a compound of a language that writes them as one word also is), or 60+
 * letters whatever their case; an identifier with capitals or underscores ("EventEmitterAsyncResource",
 * "FST_ERR_DEC_ALREADY_PRESENT") is code. A name of capitals parted by underscores, as code writes a macro or a
 * constant, is read by its longest part: a C include guard that spells a path
 * (`LLVM_EXECUTIONENGINE_ORC_TARGETPROCESS_SIMPLEEXECUTORDYLIBMANAGER_H`) is one name, where keys of lower-case words
 * strung by underscores (`river_window_letter_..._harbour`) stay words run together.
 */
export function gluedWords(info: number, len: number, text: string, from: number, to: number): number {
  if ((info & F_LOWER) !== 0) return len < GLUED_ANY ? C_MALFORMED | C_LONG : C_MALFORMED;
  return len >= GLUED_ANY && !(info & (F_ALNUM | F_NUM)) && macroPart(text, from, to) >= GLUED_ANY ? C_MALFORMED : 0;
}

/**
 * The longest run of text[from, to) between underscores when it holds an underscore and no lower-case ASCII letter (a
 * macro's or a constant's name); else its length.
 */
function macroPart(text: string, from: number, to: number): number {
  let best = 0;
  let at = from;
  for (let k = from; k <= to; k++) {
    const c = k === to ? 0x5f : text.charCodeAt(k);
    if (c >= 0x61 && c <= 0x7a) return to - from;
    if (c === 0x5f) {
      if (k - at > best) best = k - at;
      at = k + 1;
    }
  }
  return best;
}

/** Distinct letters (case folded) up to which a long run of letters is a sequence written in a small alphabet, not words glued. */
const SEQUENCE_LETTERS = 5;

/**
 * Is text[from, to), a run of letters, written with SEQUENCE_LETTERS distinct letters or fewer: a DNA or RNA sequence
 * (A, C, G, T, U, N), or a flood of a letter or two, not words run together? Runs of 25+ Latin letters in the labelled
 * corpora use 10 to 16 distinct letters when they are words glued (healthy 12, collapses 10-16); the 18 collapse runs
 * of 1 to 5 are floods, which the floods and loops fail (no verdict moved when they stopped counting as glued words).
 */
export function fewLetters(text: string, from: number, to: number): boolean {
  let seen = 0;
  let distinct = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k) | 0x20;
    if (c < 0x61 || c > 0x7a) return false;
    const bit = 1 << (c - 0x61);
    if ((seen & bit) === 0) {
      seen |= bit;
      if (++distinct > SEQUENCE_LETTERS) return false;
    }
  }
  return true;
}

/**
 * C_GLUE for token i, of another script than the letters before it, when glued to them: a dot, "@", "/" or ":" between
 * the two scripts parts the labels of a name (a host "食狮.com.cn", a mail address, a path), each in its own script;
 * a quote parts a term quoted from the prose around it, which in Chinese and Japanese has no space
 * ("开启“exactOptionalPropertyTypes”时", "「Node.js」で") and in Korean takes its particle glued ("'require'를"); so does a
 * mark of CJK writing, after which those languages write no space ("时，TypeScript").
 */
export function gluedScripts(t: TokenBuffer, i: number, text: string): number {
  if (t.start[i] !== t.end[i - 1]) return 0;
  const m = optionDashes(t, i, text);
  const before = t.info[m]!;
  if (partsLabels(before, t.id[m]!)) return 0;
  if ((before & KIND_MASK) !== K_PUNCT) return C_GLUE;
  const mark = text.charCodeAt(t.start[m]!);
  return isQuote(mark) || isCjkMark(mark) || isSyllableMark(mark) || (m === i - 1 && mark === 0x2d && latinCompound(t, i, text))
    ? 0
    : C_GLUE;
}

/**
 * The token glued between the scripts before word i: the one right before it, or, when dashes open the word after
 * another mark ("“--noEmit”", "（-v）": a command-line option quoted or in brackets), that mark: the dashes are the
 * option's own, as its letters are.
 */
function optionDashes(t: TokenBuffer, i: number, text: string): number {
  let m = i - 1;
  while (m > 0 && text.charCodeAt(t.start[m]!) === 0x2d && (t.info[m]! & KIND_MASK) === K_PUNCT && t.end[m - 1] === t.start[m]) m--;
  return m < i - 1 && (t.info[m]! & KIND_MASK) === K_PUNCT && text.charCodeAt(t.start[m]!) !== 0x2d ? m : i - 1;
}

/**
 * A Latin term, a hyphen, then a word of another alphabet in lower case or of one with no case (`JS-файлов`,
 * `escape-последовательность`, Bengali `GtkAction-টি`, Georgian `GTK-ის`): a compound, the term with the language's
 * own ending or noun. Glued junk puts a capital or a lone letter there (`sunrise-Љ`) or opens in the other script
 * (`тому-Window`), and stays glue.
 */
function latinCompound(t: TokenBuffer, i: number, text: string): boolean {
  if (i < 2 || t.end[i - 2] !== t.start[i - 1] || ((t.info[i - 2]! >> SCRIPT_SHIFT) & 15) !== SC_LATIN) return false;
  if (t.end[i]! - t.start[i]! < 2) return false;
  const script = (t.info[i]! >> SCRIPT_SHIFT) & 15;
  if (CASELESS & (1 << script)) return true;
  if (!(CASED & (1 << script))) return false;
  const first = text[t.start[i]!]!;
  return first !== first.toUpperCase();
}

/** Alphabets with cases other than Latin: a word after the hyphen opens in lower case. */
const CASED = (1 << SC_CYRILLIC) | (1 << SC_GREEK) | (1 << SC_ARMENIAN);
/** Scripts with no case written with spaces between words: any word after the hyphen. */
const CASELESS = (1 << SC_GEORGIAN) | (1 << SC_INDIC) | (1 << SC_ARABIC) | (1 << SC_HEBREW);

/** A quote mark, opening or closing: ' " ` ‘ ’ “ ” « » 「 」 『 』. Brackets are not: a gloss in another script glued inside them (IPA in brackets after a Chinese label, in an English answer: corpus-real3 d-054) is glue a collapse writes. */
function isQuote(c: number): boolean {
  if (c < 0x80) return c === 0x27 || c === 0x22 || c === 0x60;
  return (c >= 0x2018 && c <= 0x201d) || c === 0xab || c === 0xbb || (c >= 0x300c && c <= 0x300f);
}
