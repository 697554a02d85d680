/**
 * Scripts and switches: the text's own script, read from its opening prose, and the longest
 * run of prose in another one. Latin terms, names and references inside Chinese, Japanese or
 * Korean prose are normal, so the rules (rules.ts) ask a switch into Latin to run far longer.
 */
import { SC_NONE, SCRIPT_NAMES } from '../../charClass.js';
import { C_BREAK, C_CODEISH, C_FUNC, type Chunks } from './chunks.js';
import { gluesLatin } from './wordShapes.js';

/** Scripts written with spaces between words (the rest: CJK, Thai, and Hangul, whose words take Latin terms glued). */
export const SPACED: ReadonlySet<string> = new Set(['latin', 'greek', 'cyrillic', 'armenian', 'hebrew', 'arabic', 'indic', 'georgian']);

/** Letters of opening prose that say which script the text is in. */
const OPENING_LETTERS = 12;

export interface ScriptFigures {
  /** The text's script, and the longest run of prose in another one (its script, letters and start; -1 when none). */
  script: string;
  switchScript: string;
  switchLetters: number;
  switchAt: number;
}

/** The text's script and its longest run of prose in another one. */
export function readScripts(c: Chunks): ScriptFigures {
  const main = openingScript(c);
  return foreignRun(c, main);
}

/** The script most of `letters` (one count per script number) are in. */
export function dominant(letters: Int32Array): number {
  let best = SC_NONE;
  for (let s = 1; s < 16; s++) if (letters[s]! > letters[best]!) best = s;
  return best;
}

/**
 * The text's own script: the one most letters of its opening prose are in (its first 12
 * letters of clauses that read as prose in their script: with one of its function words, or
 * in a script written without spaces), so a README that opens with badges, product names
 * and markup and then is written in Russian or Chinese is a Russian or Chinese text.
 * Without such clauses, the script most of its letters are in.
 */
function openingScript(c: Chunks): number {
  const clause = new Int32Array(16);
  const opening = new Int32Array(16);
  const all = new Int32Array(16);
  let proseLetters = 0;
  // scripts the clause reads as prose in: one of its function words, or letters of a script written without spaces
  let prose = 0;
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    const fl = c.flags[i]!;
    // a chunk gluing two scripts ("people这些年来…") counts the letters of its main script only; a name in markup none
    if (!(fl & C_CODEISH)) {
      all[s] = all[s]! + c.scriptLetters[i]!;
      clause[s] = clause[s]! + c.scriptLetters[i]!;
      if (fl & C_FUNC || gluesLatin(s)) prose |= 1 << s;
    }
    if (fl & C_BREAK || i === c.n - 1) {
      for (let s = 1; s < 16; s++) {
        if (!(prose & (1 << s))) continue;
        opening[s] = opening[s]! + clause[s]!;
        proseLetters += clause[s]!;
      }
      if (proseLetters >= OPENING_LETTERS) return dominant(opening);
      clause.fill(0);
      prose = 0;
    }
  }
  return dominant(all);
}

/** The longest run of chunks in one script other than the main one (letters counted). */
function foreignRun(c: Chunks, main: number): ScriptFigures {
  const f: ScriptFigures = { script: SCRIPT_NAMES[main] ?? 'none', switchScript: '', switchLetters: 0, switchAt: -1 };
  let run = 0;
  let runScript = SC_NONE;
  let runAt = -1;
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    if (s === main || s === SC_NONE) {
      run = 0;
      runScript = SC_NONE;
      continue;
    }
    if (s !== runScript) {
      run = 0;
      runScript = s;
      runAt = c.start[i]!;
    }
    // a chunk with code punctuation ("[![CI", "version][npm-badge]") is a name in markup: its letters are not the prose's
    if (c.flags[i]! & C_CODEISH) continue;
    run += c.letters[i]!;
    if (run > f.switchLetters) {
      f.switchLetters = run;
      f.switchScript = SCRIPT_NAMES[s] ?? 'other';
      f.switchAt = runAt;
    }
  }
  return f;
}
