/**
 * Scripts and switches: the text's own script, read from its opening prose, and the longest
 * run of prose in another one. Latin terms, names and references inside Chinese, Japanese or
 * Korean prose are normal, so the rules (rules.ts) ask a switch into Latin to run far longer.
 * The own script is read from the writer's prose only: the chunks already leave out code
 * blocks, code spans, URLs and markup, and the opening also leaves out indented code and
 * what the prose quotes or glosses in quotes and brackets (a query, a name's expansion), which
 * is a mention in any language.
 */
import * as charClass from '../../charClass.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as shapes from './tokenShapes.js';
import { mostWritten } from './writtenLetters.js';

// Module-level copies of what the reading uses per chunk or token: an imported binding is live,
// read through its module's cell each time, where a const of this module is not.
const { SC_NONE, SCRIPT_NAMES } = charClass;
const { C_BREAK, C_CODEISH, C_FUNC } = chunks;
const { gluesLatin } = shapes;

/** Bits of every script a count per script holds (1 to 15; 0 is SC_NONE). */
const ALL_SCRIPTS = 0xfffe;

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
export function readScripts(c: Chunks, text: string): ScriptFigures {
  const main = openingScript(c, text, new Asides(text));
  return foreignRun(c, main, text);
}

/** The script most of `letters` (one count per script number) are in. */
export function dominant(letters: Int32Array): number {
  let best = SC_NONE;
  for (let s = 1; s < 16; s++) if (letters[s]! > letters[best]!) best = s;
  return best;
}

/** Letters per script of the clause read, of the opening's prose and of all the prose: shared by every call (each zeroes them first). */
const CLAUSE = new Int32Array(16);
const OPENING = new Int32Array(16);
const ALL = new Int32Array(16);

/**
 * The text's own script: the one most letters of its opening prose are in (its first 12
 * letters of clauses that read as prose in their script: with one of its function words, or
 * in a script written without spaces; chunks quoted, in brackets or on indented code lines
 * aside), so a README that opens with badges, product names and markup and then is written
 * in Russian or Chinese is a Russian or Chinese text, and a Korean sentence that quotes a
 * query or spells out a name in English is Korean. Without such clauses, the script most of
 * its letters are in.
 */
function openingScript(c: Chunks, text: string, asides: Asides): number {
  const clause = CLAUSE.fill(0);
  const opening = OPENING.fill(0);
  const all = ALL.fill(0);
  let proseLetters = 0;
  // scripts the clause reads as prose in: letters of a script written without spaces, or one of its function words with
  // a word of it that is none (a clause of function words alone names them: "for, while, until 반복문을 나갑니다" and
  // "退出 for、while 或 until 循环" name the keywords of a Korean and a Chinese sentence); a function word in capitals is
  // a keyword of code or an acronym ("SELECT name FROM users" in a Korean sentence)
  let prose = 0;
  let funcs = 0;
  let content = 0;
  // scripts the clause has letters of: only their counts are added and cleared at its end, most clauses have one
  let inClause = 0;
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    const fl = c.flags[i]!;
    // a chunk gluing two scripts ("people这些年来…") counts the letters of its main script only; a name in markup none
    if (!(fl & C_CODEISH)) {
      all[s] = all[s]! + c.scriptLetters[i]!;
      if (!asides.aside(c.start[i]!)) {
        clause[s] = clause[s]! + c.scriptLetters[i]!;
        inClause |= 1 << s;
        if (gluesLatin(s)) prose |= 1 << s;
        else if (fl & C_FUNC && !inCapitals(text, c.start[i]!)) funcs |= 1 << s;
        else content |= 1 << s;
      }
    }
    if (fl & C_BREAK || i === c.n - 1) {
      prose |= funcs & content;
      for (let m = prose & ~1; m !== 0; m &= m - 1) {
        const s = 31 - Math.clz32(m & -m);
        opening[s] = opening[s]! + clause[s]!;
        proseLetters += clause[s]!;
      }
      if (proseLetters >= OPENING_LETTERS) return dominant(opening);
      for (let m = inClause; m !== 0; m &= m - 1) clause[31 - Math.clz32(m & -m)] = 0;
      inClause = 0;
      prose = 0;
      funcs = 0;
      content = 0;
    }
  }
  // no clause of prose opened it: the script its writing is mostly in, a char of a script that writes a syllable or a
  // word counted as the letters it writes (lines of options, each indented, a description in Chinese beside a Latin flag)
  return mostWritten(all, 0, ALL_SCRIPTS);
}

/** Do the first two chars at `at` read as capital letters (a word in capitals: `FROM`, `AND`, `IF`)? */
function inCapitals(text: string, at: number): boolean {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  return a >= 0x41 && a <= 0x5a && b >= 0x41 && b <= 0x5a;
}

/**
 * The longest run of chunks in one script other than the main one (letters counted). A run the prose introduces with a
 * colon and then goes on from in its own script (`say: 初めまして… The first part means`, `in Mandarin:`, the sentence
 * on its own line, then its pinyin) is an example or a quotation, in any language, and not counted: a model that drifts
 * into another script does so inside a sentence or at a new item (`people这些年来…`, `14.雹神…`), and one that answers
 * in another script after `here is the answer:` does not come back. None of the labelled collapses switches after a
 * colon and comes back.
 */
function foreignRun(c: Chunks, main: number, text: string): ScriptFigures {
  const f: ScriptFigures = { script: SCRIPT_NAMES[main] ?? 'none', switchScript: '', switchLetters: 0, switchAt: -1 };
  let run = 0;
  let runScript = SC_NONE;
  let runAt = -1;
  // the longest run so far of one introduced by a colon: counted unless the prose comes back before another script
  let held = 0;
  let heldScript = SC_NONE;
  let heldAt = -1;
  const count = (letters: number, script: number, at: number): void => {
    if (letters <= f.switchLetters) return;
    f.switchLetters = letters;
    f.switchScript = SCRIPT_NAMES[script] ?? 'other';
    f.switchAt = at;
  };
  for (let i = 0; i < c.n; i++) {
    const s = c.script[i]!;
    if (s === main || s === SC_NONE) {
      // the prose comes back: what the colon introduced was an example
      if (s === main) held = 0;
      run = 0;
      runScript = SC_NONE;
      continue;
    }
    if (s !== runScript) {
      // another script before the prose came back: the run held was no example
      if (held > 0) count(held, heldScript, heldAt);
      held = 0;
      run = 0;
      runScript = s;
      runAt = c.start[i]!;
      heldScript = afterColon(text, runAt) ? s : SC_NONE;
      heldAt = runAt;
    }
    // a chunk with code punctuation ("[![CI", "version][npm-badge]") is a name in markup: its letters are not the prose's
    if (c.flags[i]! & C_CODEISH) continue;
    run += c.letters[i]!;
    if (heldScript !== SC_NONE) held = Math.max(held, run);
    else count(run, s, runAt);
  }
  // a run that the text ends in was no example
  if (held > 0) count(held, heldScript, heldAt);
  return f;
}

/** Does a colon (`:`, `：`) come right before `at`, past whitespace and the quotes and brackets that open what it introduces? */
function afterColon(text: string, at: number): boolean {
  let k = at - 1;
  for (; k >= 0 && at - k <= 16; k--) {
    const c = text.charCodeAt(k);
    const mark = c < ASIDE_MARKS.length ? ASIDE_MARKS[c]! : 0;
    if (mark !== OPENER && mark !== STRAIGHT && !(c <= 0x20 || c === 0xa0 || c === 0x3000)) break;
  }
  const c = k >= 0 ? text.charCodeAt(k) : 0;
  return c === 0x3a || c === 0xff1a;
}

/** Columns of indentation that make a line code (a markdown indented code block). */
const CODE_INDENT = 4;

/**
 * Reads the text forward, chunk start by chunk start: is a chunk quoted or in brackets (a
 * mention or a gloss: what the prose quotes is in any language), or on a line of indented
 * code (indented 4+ columns after a blank line or another such line, not in a list)? A line
 * break closes what a line left open, so a stray quote or a bracket of code hides one line at
 * most.
 */
export class Asides {
  private pos = 0;
  /** Inside straight double quotes; curly quotes, guillemets and CJK corner brackets open; brackets open. */
  private straight = false;
  private depth = 0;
  private lineCode = false;
  private prevCode = false;
  private prevBlank = true;
  private lineBlank = true;
  /** The line is a list item or goes on with one (an indented line in a list is its prose); the last line with text was. */
  private lineList = false;
  private prevList = false;

  constructor(private readonly text: string) {
    this.startLine(0);
  }

  /** Is the chunk starting at `at` (past the marks it opens with) an aside? Chunk starts come in order. */
  aside(at: number): boolean {
    const t = this.text;
    this.advance(at);
    // the marks the chunk opens with ('"SELECT', "(System") open before its letters
    let j = at;
    while (j < t.length && !isWordChar(t.charCodeAt(j))) j++;
    this.advance(j);
    return this.lineCode || this.straight || this.depth > 0 || (j > at && t.charCodeAt(j - 1) === 0x27 && closesQuote(t, j));
  }

  private advance(to: number): void {
    const t = this.text;
    for (let i = this.pos; i < to; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 0x0a) {
        this.prevBlank = this.lineBlank;
        if (!this.lineBlank) {
          this.prevCode = this.lineCode;
          this.prevList = this.lineList;
        }
        this.straight = false;
        this.depth = 0;
        this.startLine(i + 1);
        continue;
      }
      if (ch !== 0x20 && ch !== 0x09 && ch !== 0x0d) this.lineBlank = false;
      const m = ch < ASIDE_MARKS.length ? ASIDE_MARKS[ch]! : 0;
      if (m === 0) continue;
      if (m === STRAIGHT) this.straight = !this.straight;
      else if (m === OPENER) this.depth++;
      else if (this.depth > 0) this.depth--;
    }
    if (to > this.pos) this.pos = to;
  }

  /** A line starts at `at`: is it indented code? */
  private startLine(at: number): void {
    const t = this.text;
    let cols = 0;
    let j = at;
    for (; j < t.length && cols < CODE_INDENT; j++) {
      const ch = t.charCodeAt(j);
      if (ch === 0x20) cols++;
      else if (ch === 0x09) cols = CODE_INDENT;
      else break;
    }
    let k = j;
    while (k < t.length && (t.charCodeAt(k) === 0x20 || t.charCodeAt(k) === 0x09)) k++;
    const marker = listMarker(t, k);
    this.lineBlank = true;
    this.lineCode = cols >= CODE_INDENT && (this.prevBlank || this.prevCode) && !marker && !this.prevList;
    this.lineList = marker || (cols > 0 && this.prevList);
  }
}

/** Quotes and brackets that open an aside, and those that close one: ( [ “ « 「 『 （ 【 and ) ] ” » 」 』 ） 】. */
const OPENERS = [0x28, 0x5b, 0x201c, 0xab, 0x300c, 0x300e, 0xff08, 0x3010];
const CLOSERS = [0x29, 0x5d, 0x201d, 0xbb, 0x300d, 0x300f, 0xff09, 0x3011];
const OPENER = 1;
const CLOSER = 2;
const STRAIGHT = 3;
/** By char code (up to the last of them): OPENER, CLOSER, STRAIGHT for '"', 0 for any other char. */
const ASIDE_MARKS = new Uint8Array(0xff0a);
for (const c of OPENERS) ASIDE_MARKS[c] = OPENER;
for (const c of CLOSERS) ASIDE_MARKS[c] = CLOSER;
ASIDE_MARKS[0x22] = STRAIGHT;

/**
 * Does a single quote close the term that starts at `from`, and is that term most of its chunk ('any', 'require'를)?
 * Such a chunk is a term quoted, as one in double quotes is, with at most a particle glued after it; an apostrophe
 * that opens a word ('tis) closes nothing, and a chunk that goes on past the term in a script written without spaces
 * ('minify'、それ以外の場合は) is the prose's own.
 */
function closesQuote(t: string, from: number): boolean {
  let close = -1;
  let k = from + 1;
  for (; k < t.length; k++) {
    const ch = t.charCodeAt(k);
    if (ch === 0x20 || ch === 0x0a || ch === 0x09 || ch === 0x0d) break;
    if (ch === 0x27 && close < 0) close = k;
  }
  return close > 0 && k - close - 1 < close - from;
}

/** A letter or digit (any char past ASCII but a quote or bracket counts: the chunk's letters start there). */
function isWordChar(ch: number): boolean {
  if (ch >= 0x80) return ch >= ASIDE_MARKS.length || ASIDE_MARKS[ch] === 0;
  return ((ch | 0x20) >= 0x61 && (ch | 0x20) <= 0x7a) || (ch >= 0x30 && ch <= 0x39);
}

/** Does a list item's marker open the line's text at `at` ("- ", "* ", "+ ", "1. ", "2) ")? */
function listMarker(t: string, at: number): boolean {
  const ch = t.charCodeAt(at);
  if ((ch === 0x2d || ch === 0x2a || ch === 0x2b) && t.charCodeAt(at + 1) === 0x20) return true;
  let j = at;
  while (j < t.length && t.charCodeAt(j) >= 0x30 && t.charCodeAt(j) <= 0x39) j++;
  return j > at && (t.charCodeAt(j) === 0x2e || t.charCodeAt(j) === 0x29);
}
