/**
 * Whitespace-delimited chunks of the prose (code, markup and addresses left out), read as a
 * reader reads words: does each look like a word of some language, is it a function word,
 * does punctuation or a line break follow it, which script is it in. A chunk is malformed
 * when no language writes a word like it: letters of two scripts glued where the prose
 * writes words apart ("artillery日至itm" in English text; "用Python" in Chinese is normal;
 * "HinweisЉ"), 25+ letters run together, a comma or quote glued between two words
 * ("theater,angel"). Case flips, digits and missing vowels are left out: code and tech prose
 * are full of them ("ErrNotFound", "uint64", "npm"); so are chunks of code and data.
 */
import * as charClass from '../../charClass.js';
import * as tokenizer from '../../text/tokenizer.js';
import * as tokens from '../../text/tokens.js';
import type { TokenBuffer } from '../../text/tokens.js';
import { ChunkReading } from './chunkReading.js';
import * as chunks from './chunks.js';
import type { Chunks } from './chunks.js';
import * as close from './closeChunk.js';
import * as letters from './letterShapes.js';
import { latinWithParticle } from './latinWithParticle.js';
import * as punct from './readPunct.js';
import * as fence from './skipFence.js';
import * as shapes from './tokenShapes.js';

// Module-level copies of what the reading uses per token: an imported binding is live, read
// through its module's cell each time, where a const of this module is not.
const { F_CODE, F_FENCE, F_FUNC, F_GAP, F_LINE, F_MIXSCRIPT, F_SPACE, K_MARK, K_PUNCT, K_SOLO, K_WORD, KIND_MASK, SCRIPT_SHIFT } = tokens;
const { SC_NONE } = charClass;
const { C_BREAK, C_CASED, C_FUNC, C_GAP, C_MALFORMED, C_NONASCII, C_SEQUENCE, chunkSet } = chunks;
const { closeChunk } = close;
const { countScripts, fewLetters, GLUED_LETTERS, gluedScripts, gluedWords } = letters;
const { readPunct } = punct;
const { endsEscape, skipFence } = fence;
const { isBacktick, opensTag, writesTogether } = shapes;

/** The bits of the token flags read into chunk flags. */
const BIT_F_FUNC = 31 - Math.clz32(F_FUNC);
const BIT_F_LOWER = 31 - Math.clz32(tokenizer.F_LOWER);
const BIT_C_FUNC = 31 - Math.clz32(C_FUNC);
const BIT_C_CASED = 31 - Math.clz32(C_CASED);

/** The state of the reading: one object, reset for every reading (see chunkReading.ts). */
const READING = new ChunkReading();

export function readChunks(t: TokenBuffer, text: string, from = 0, fenced = false): Chunks {
  // the prose reading keeps no chunk of code; the fenced one keeps only chunks inside fenced blocks, and their fence
  // alone does not make them code (a URL, a tag or a comment inside the block still does)
  const codeOf = fenced ? F_CODE | F_FENCE : F_CODE;
  const keepOnly = fenced ? F_FENCE : 0;
  // the buffer's arrays in locals: the loop reads them at every token
  const { info: tInfo, start: tStart, end: tEnd, id: tId, n: tn } = t;
  // a chunk takes a token and the whitespace after it: half the tokens is room for all of them but in odd texts
  const out = chunkSet(fenced, Math.max(16, (tn - from) >> 1));
  const r = READING;
  r.reset(codeOf);
  // one loop over the tokens and one step past the last: a chunk is closed where whitespace or a glued tag starts the
  // next one, and at the end
  for (let i = from; ; i++) {
    const info = i < tn ? tInfo[i]! : 0;
    let closing = i === tn;
    let breakAfter = false;
    if (closing) {
      // past the last token: the chunk going on ends with the text
    } else if (i > from && info & F_SPACE) {
      r.line = (info & F_LINE) !== 0 || r.escapedLine;
      r.escapedLine = false;
      closing = true;
      breakAfter = r.line;
      // two spaces or a tab between words: the gap between the columns of a table or of aligned output
      if (!r.line && info & F_GAP) r.flags |= C_GAP;
    } else if (
      r.start >= 0 &&
      (r.code
        ? i > from && (tId[i - 1] === 0x3e || (isBacktick(t, i - 1) && !(info & F_CODE))) && (info & KIND_MASK) === K_SOLO
        : r.letters > 0 && (tId[i] === 0x3c || tId[i] === 0x60) && writesTogether(r.prevScript) && (opensTag(t, i) || isBacktick(t, i)))
    ) {
      // a tag or a code span glued to Chinese, Japanese or Thai ("答案。<eoa>", "<b>粗体</b>", "将`low`更新为") parts it as a
      // space does: those scripts write no space, so a glued tag or span would take a whole line of prose with it into
      // markup or code (in spaced prose it takes a word)
      r.line = false;
      closing = true;
    }
    if (closing) {
      const kept = out.n;
      closeChunk(r, out, t, i, info, breakAfter);
      // a kept chunk of two or three letters: whether one of them is past ASCII (a syllable with its marks, not a piece of a word)
      if (out.n > kept && out.letters[kept]! <= 3 && out.letters[kept]! > 1 && pastAscii(text, out.start[kept]!, tEnd[i - 1]!))
        out.flags[kept] = out.flags[kept]! | C_NONASCII;
      if (i === tn) break;
    }
    if (keepOnly !== 0 && !(info & F_FENCE)) {
      // outside every fenced block: skipped to the next fenced token, as one chunk of code (dropped)
      if (r.start < 0) r.start = tStart[i]!;
      r.code = true;
      while (i + 1 < tn && !(tInfo[i + 1]! & F_FENCE)) i++;
      continue;
    }
    if (keepOnly === 0 && info & F_FENCE && !(endsEscape(t, text, i) && !(tInfo[i + 1]! & F_FENCE))) {
      // inside a fenced block the prose reading keeps no chunk: passed over to the block's end (skipFence.ts)
      i = skipFence(r, out, t, text, i);
      continue;
    }
    const k = info & KIND_MASK;
    if (r.start < 0) r.start = tStart[i]!;
    if ((info & codeOf) === F_CODE || k === K_MARK) {
      r.code = true;
      if (info & F_FENCE) r.sawFence = true;
    }
    if (k === K_PUNCT) {
      i = readPunct(r, t, text, i);
      continue;
    }
    r.endRun();
    // a word, a solo letter or a mark of markup. The common one (a word of one script, after letters of the same one or
    // none) is read here, in the loop: as a function of its own it took the budget V8 inlines into one function, and
    // closing a chunk, called as often, was left a call; the rare shapes are read apart (letterShapes.ts)
    const script = (info >> SCRIPT_SHIFT) & 15;
    if (script === SC_NONE) {
      if (k === K_WORD) r.digits = true;
      continue;
    }
    const len = tEnd[i]! - tStart[i]!;
    r.key = Math.imul(r.key ^ tId[i]!, 0x01000193);
    const add = k === K_SOLO ? 1 : len;
    const bit = 1 << script;
    const mask = r.scriptMask;
    if (mask !== bit && mask !== 0) countScripts(r, mask, script, add);
    r.letters += add;
    r.scriptMask = mask | bit;
    // set from the token's bits, not by a branch: whether a word is a function word or has a capital is as good as
    // random to the processor
    let flags = (r.flags & ~C_BREAK) | (((info >> BIT_F_FUNC) & 1) << BIT_C_FUNC);
    if (k === K_WORD) {
      flags |= ((~info >> BIT_F_LOWER) & 1) << BIT_C_CASED;
      if (len >= GLUED_LETTERS && !fewLetters(text, tStart[i]!, tEnd[i]!)) flags |= gluedWords(info, len, text, tStart[i]!, tEnd[i]!);
    }
    // case flips ("ErrNotFound", "PropTech"), digits in words ("uint64", "mp3") and abbreviations without vowels
    // ("npm", "html") are names in code and tech prose: not counted; nor is a Latin term with a Korean particle glued
    // to it (latinWithParticle.ts)
    if (info & F_MIXSCRIPT && !latinWithParticle(text, tStart[i]!, tEnd[i]!)) flags |= C_MALFORMED;
    const prev = r.prevScript;
    if (prev !== SC_NONE && script !== prev) flags |= gluedScripts(t, i, text);
    r.flags = flags;
    r.prevScript = script;
  }
  out.fenced = r.sawFence;
  markSequences(out, text);
  return out;
}

/** Letters in a row of the alphabet from which single letters are a sequence listed (C_SEQUENCE). */
const SEQUENCE_RUN = 5;

/**
 * Sets C_SEQUENCE on the chunks of one letter each (marks around it allowed, `a)`, `(b)`) that make a run of
 * SEQUENCE_RUN or more, each the letter after the one before in the Latin or the Cyrillic alphabet (or each the one
 * before it: the alphabet backwards), case aside.
 */
function markSequences(c: Chunks, text: string): void {
  let runFrom = 0;
  let prev = -9;
  // +1 forwards, -1 backwards, 0 while the run holds one letter
  let step = 0;
  for (let i = 0; i <= c.n; i++) {
    const code = i < c.n && c.letters[i] === 1 ? letterOf(text, c.start[i]!, i + 1 < c.n ? c.start[i + 1]! : text.length) : -1;
    const d = code - prev;
    if (code >= 0 && (d === 1 || d === -1) && (step === 0 || d === step)) {
      prev = code;
      step = d;
      continue;
    }
    if (i - runFrom >= SEQUENCE_RUN) for (let k = runFrom; k < i; k++) c.flags[k] = c.flags[k]! | C_SEQUENCE;
    // a letter that breaks a run may start the next one, which can take its letter before as its first ("a b c b a")
    runFrom = i;
    prev = code < 0 ? -9 : code;
    step = 0;
  }
}

/** The one letter of text[from, to), lower-cased, when it is an ASCII or a basic Cyrillic letter; else -1. */
function letterOf(text: string, from: number, to: number): number {
  for (let k = from; k < to; k++) {
    const ch = text.charCodeAt(k);
    if ((ch >= 0x41 && ch <= 0x5a) || (ch >= 0x61 && ch <= 0x7a)) return ch | 0x20;
    if (ch >= 0x410 && ch <= 0x44f) return ch >= 0x430 ? ch : ch + 0x20;
  }
  return -1;
}

/** Whether a char of text[from, to) is past ASCII. */
function pastAscii(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) >= 0x80) return true;
  return false;
}
