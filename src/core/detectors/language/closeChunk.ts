/**
 * A chunk closed (by whitespace, a glued tag or span, or the end of the text): what its marks
 * left is settled, and it is kept when it has letters and is no code. One that is not kept
 * leaves a break on the chunk before it, and a line, an opening or noise to the next kept one.
 */
import * as tokenizer from '../../text/tokenizer.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import * as charClass from '../../charClass.js';
import type { ChunkReading } from './chunkReading.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as marks from './marks.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_LOWER } = tokenizer;
const { K_WORD, KIND_MASK } = tokens;
const { SC_NONE } = charClass;
const { C_AFTER, C_BREAK, C_CODEISH, C_DIGITS, C_LINE, C_MALFORMED, C_STOP, grow } = chunks;
const { RUN_LOOSE, RUN_NOISY } = marks;

/** Backslashes, slashes or bars in a row alone between words that no writing has ("the \\\\\\ of"). */
const BAR_RUN = 3;
/** Commas glued inside one chunk from which it is fields of data (a CSV row), not words glued by a comma. */
const DATA_COMMAS = 2;

/**
 * Closes the chunk of `r` before token i (`next`: that token's info, 0 past the last one),
 * adding it to `out` when kept, and starts the next one (after the last token that start is
 * never read); `breakAfter`: the whitespace that closes it has a line break.
 * A kept chunk (letters, no code) and a dropped one are read apart, each small enough for the
 * reading's loop to take the common one in.
 */
export function closeChunk(r: ChunkReading, out: Chunks, t: TokenBuffer, i: number, next: number, breakAfter: boolean): void {
  // one full stop, "!" or "?" after the letters ends a sentence (a run of marks, an ellipsis or "?!", does not say so)
  const stop = r.run === 1 && (r.runPair === 0x2e || r.runPair === 0x21 || r.runPair === 0x3f);
  if (r.run > 0) endLastRun(r, next);
  if (r.start < 0 || r.letters === 0 || r.code) dropChunk(r, out, t, i);
  else keepChunk(r, out, breakAfter, stop);
}

/** The chunk of `r`, with letters and no code, added to `out`. */
function keepChunk(r: ChunkReading, out: Chunks, breakAfter: boolean, stop: boolean): void {
  const letters = r.letters;
  let flags = r.flags;
  // fields glued by commas are data (a CSV row), not words glued by a comma
  if (r.commas >= DATA_COMMAS) flags |= C_CODEISH;
  // code and data are not words: only letters of two scripts glued count in them
  if (flags & C_CODEISH) flags &= ~C_MALFORMED;
  if (r.digits) flags |= C_DIGITS;
  const n = out.n;
  if (n === out.start.length) grow(out);
  flags |= r.owed;
  r.owed = 0;
  // a chunk of one script has all its letters in it; only a chunk of several counted them per script
  const mask = r.scriptMask;
  let best = 31 - Math.clz32(mask);
  let bestLetters = letters;
  if ((mask & (mask - 1)) !== 0) {
    best = mainScript(r.scripts);
    bestLetters = r.scripts[best]!;
  }
  out.start[n] = r.start;
  out.flags[n] = flags | (breakAfter ? C_BREAK : 0) | (stop ? C_STOP : 0);
  out.script[n] = best;
  out.letters[n] = letters;
  out.scriptLetters[n] = bestLetters;
  out.key[n] = r.key;
  // bit 0: the chunk's own noise (RUN_NOISY is that bit); the rest: the letterless chunks before the first kept one
  out.noise[n] = (r.marks & RUN_NOISY) | (r.noiseOwed << 1);
  r.noiseOwed = 0;
  out.n = n + 1;
  r.nextChunk();
}

/** The run of marks that ends the chunk ends, `next` the info of the token after the whitespace (0 at the end). */
function endLastRun(r: ChunkReading, next: number): void {
  // "!" or "?" alone ends a sentence: the next one does not start in lower case
  if (r.run === 1 && (r.runPair === 0x21 || r.runPair === 0x3f) && (next & (KIND_MASK | F_LOWER)) === (K_WORD | F_LOWER))
    r.marks |= RUN_NOISY;
  r.endRun();
}

/** The script with the most letters among a chunk's counts per script. */
function mainScript(scripts: Int32Array): number {
  let best = SC_NONE;
  for (let s = 1; s < 16; s++) if (scripts[s]! > scripts[best]!) best = s;
  return best;
}

/** A chunk closed that is not kept (no letters, or code): what it leaves on the chunk before it and the next kept one. */
function dropChunk(r: ChunkReading, out: Chunks, t: TokenBuffer, i: number): void {
  const { letters, start, code } = r;
  // a chunk of punctuation alone with a comma or a dot in it ("**.", ",-", ".."): not a lone mark (a table's "." for
  // nothing), a number ("1."), an ellipsis, code ("},") or a quoted mark ('",')
  if (
    letters === 0 &&
    r.marks & RUN_LOOSE &&
    !r.digits &&
    !r.enclosed &&
    t.end[i - 1]! - start > 1 &&
    !morse(t, i, start) &&
    !namesMark(t, i, start)
  )
    r.marks |= RUN_NOISY;
  // three or more backslashes, slashes or bars alone inside a line, between words ("the \\\\\\ of"): no writing has
  // them ("///" opening a line is a comment)
  if (letters === 0 && r.barMax >= BAR_RUN && !r.enclosed && !(r.flags & C_LINE)) r.marks |= RUN_NOISY;
  const n = out.n;
  // a chunk with no letters, or of code or markup, breaks the prose before it ("- item", "|", "<br>")
  if (start >= 0 && n > 0) out.flags[n - 1] = out.flags[n - 1]! | C_BREAK;
  // a line break before a chunk that is not kept (a brace, a bullet, code) starts the next kept one's line
  r.owed |= (r.flags & C_LINE) | (start >= 0 ? C_AFTER : 0);
  if (r.marks & RUN_NOISY && !code && start >= 0) {
    if (n > 0 && out.noise[n - 1]! < 0xfe) out.noise[n - 1] = out.noise[n - 1]! + 2;
    else if (n === 0 && r.noiseOwed < 0x7f) r.noiseOwed++;
  }
  r.nextChunk();
}

/**
 * The chunk before token i, from char `start`, is dots and dashes with a dash among them ("-...", ".-", "--.-"): Morse
 * code or a rule, a notation, not marks doubled where no language puts them. Dots alone ("..", "....") stay what they
 * were.
 */
function morse(t: TokenBuffer, i: number, start: number): boolean {
  let dash = false;
  for (let k = i - 1; k >= 0 && t.start[k]! >= start; k--) {
    const id = t.id[k]!;
    if (id === 0x2d) dash = true;
    else if (id !== 0x2e) return false;
  }
  return dash;
}

/**
 * Operators a list names one by one, each then a comma (`+, -, *, /`, `==, !=, <=`, `&&, ||`, `++, --`): of C and the
 * languages written like it, Python and Perl. Marks doubled where no language puts them (`..`, `,,`, `!!`, `**-`) are
 * none of them.
 */
const OPERATORS: ReadonlySet<string> = new Set(
  [
    '+ - * / % = < > ! ~ & | ^',
    '++ -- ** // == != <= >= << >> && || += -= *= /= %= &= |= ^= -> => ::',
    '<<= >>= === !== <=> **= //= ...',
  ].flatMap((row) => row.split(' ')),
);

/**
 * The chunk before token i, from char `start`, is a notation then one comma, not marks doubled where no language puts
 * them: an operator a list names (OPERATORS: `+, -, *, /`), pointer or reference marks (`char *, int`, `struct buf
 * **,`: a parameter without a name in a C or C++ prototype; a CSS selector list's `*,`), or the end of a C comment (a
 * star and a slash: `int`, its name in a comment, then the comma).
 */
function namesMark(t: TokenBuffer, i: number, start: number): boolean {
  if (t.id[i - 1] !== 0x2c) return false;
  let marks = '';
  let pointers = true;
  for (let k = i - 2; k >= 0 && t.start[k]! >= start; k--) {
    const id = t.id[k]!;
    if (marks.length === 4 || id >= 0x80) return false;
    if (id !== 0x2a && id !== 0x26) pointers = false;
    marks = String.fromCharCode(id) + marks;
  }
  return marks !== '' && (pointers || marks === '*/' || OPERATORS.has(marks));
}
