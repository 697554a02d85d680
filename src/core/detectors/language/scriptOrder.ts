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
    if (oddParts(text, start[i]!, end[i]!)) {
      if (count === 0) at = start[i]!;
      count++;
    }
  }
  return { oddScriptWords: count, oddScriptAt: at };
}

/** Whether a part of text[from, to) between underscores is odd: an identifier's parts are labels, each in its own script (`команда_shell`). */
function oddParts(text: string, from: number, to: number): boolean {
  let a = from;
  for (let k = from; k <= to; k++) {
    if (k < to && text.charCodeAt(k) !== 0x5f) continue;
    if (k > a && oddScriptOrder(text, a, k)) return true;
    a = k + 1;
  }
  return false;
}

/**
 * Letters the two alphabets write alike (Latin a, c, e, i, j, o, p, s, x, y and the capitals A, B, C, E, H, I, J, K,
 * M, O, P, S, T, X, Y, and their Cyrillic twins). Typed in the other script by slip, they tell nothing: healthy
 * translations hold such slips (`сe`, `локалiзацiї`, `ПРЕФИКСaa`: 33 of the gettext catalogs' translations, by
 * Bulgarian, Serbian, Ukrainian and Russian translators). A run of them takes the script of the letters on both its
 * sides; at the word's edge, that of the letters on its one side when the word has two or more of them that are no
 * twin (a slip inside a word; `Оw` in junk of many scripts is two scripts); between a Cyrillic and a Latin letter
 * (`описанияPostScript`) it keeps its own. A word of twins alone (`сe`) tells nothing.
 */
const TWINS = new Set([...'aceijopsxyABCEHIJKMOPSTXYасеіјорѕхуАВСЕНІЈКМОРЅТХУ'].map((ch) => ch.charCodeAt(0)));

/** Scratch: per letter of the word read, its script once the twins are read (LATIN, CYRILLIC), and its char. */
let SCRIPTS = new Uint8Array(64);
let CHARS = new Uint16Array(64);

/**
 * Whether text[from, to) has a Cyrillic letter right before a lower-case Latin one, or switches between the two scripts
 * twice, its twin letters (TWINS) read in the script around them.
 */
export function oddScriptOrder(text: string, from: number, to: number): boolean {
  if (SCRIPTS.length < to - from) {
    SCRIPTS = new Uint8Array(to - from);
    CHARS = new Uint16Array(to - from);
  }
  const scripts = SCRIPTS;
  const chars = CHARS;
  // the word's letters of the two scripts, twins marked 0 until their run ends
  let m = 0;
  let runFrom = -1;
  // letters of each script that are no twin
  let latin = 0;
  let cyrillic = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    const script = latinOrCyrillic(c);
    if (script === LATIN && !TWINS.has(c)) latin++;
    else if (script === CYRILLIC && !TWINS.has(c)) cyrillic++;
  }
  if (latin + cyrillic === 0) return false;
  for (let k = from; k <= to; k++) {
    const c = k < to ? text.charCodeAt(k) : 0;
    const script = k < to ? latinOrCyrillic(c) : NONE;
    if (k < to && script === NONE) continue;
    if (k < to && TWINS.has(c)) {
      if (runFrom < 0) runFrom = m;
      scripts[m] = 0;
      chars[m++] = c;
      continue;
    }
    if (runFrom >= 0) {
      const left = runFrom > 0 ? scripts[runFrom - 1]! : NONE;
      // the script the run is read in: that of both its sides, or of its one side at an edge when the word has two
      // letters of it that are no twin; NONE: each twin its own
      const side = left === NONE ? script : left;
      const around = left === script || ((left === NONE || script === NONE) && (side === LATIN ? latin : cyrillic) >= 2) ? side : NONE;
      for (let j = runFrom; j < m; j++) scripts[j] = around === NONE ? latinOrCyrillic(chars[j]!) : around;
      runFrom = -1;
    }
    if (k < to) {
      scripts[m] = script;
      chars[m++] = c;
    }
  }
  let prev = NONE;
  let switches = 0;
  for (let j = 0; j < m; j++) {
    const script = scripts[j]!;
    if (prev !== NONE && script !== prev) {
      if (++switches >= 2) return true;
      if (prev === CYRILLIC && isLowerLatin(chars[j]!)) return true;
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
