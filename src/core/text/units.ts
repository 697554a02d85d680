/**
 * The one model of a repeated unit: what a stretch of tokens that repeats is, as a reader
 * names it. Every detector that reports a loop, a tail repeat, a cycle or a list asks this
 * module, so one unit has one name everywhere.
 *
 * - char: a few chars glued to themselves inside one token ("GGGG", "OfOfOf", "x005F_x005F_")
 * - punctuation: punctuation or symbols only ("!!!!", "|---|", "⁇ ⁇")
 * - tag: markup tags or template tokens only ("</div>", "<|im_start|>", "[PAD]")
 * - word: one word, with the punctuation around it ("milk", "the,", "自强")
 * - phrase: several words within a sentence and a line
 * - sentence: one or more sentences within one line
 * - line: one or more lines, no blank line inside
 * - paragraph: text with a blank line inside
 */
import { F_BLANK, F_LINE, K_MARK, K_PUNCT, K_SOLO, KIND_MASK, type TokenBuffer } from './tokens.js';

export const UNIT_KINDS = ['char', 'punctuation', 'tag', 'word', 'phrase', 'sentence', 'line', 'paragraph'] as const;
export type UnitKind = (typeof UNIT_KINDS)[number];

/** Chars that end a sentence. */
export function isSentenceEndChar(c: number): boolean {
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0x2026 || c === 0x0964;
}

/**
 * The kind of the unit made of tokens [from, to). `sentenceEnd(i)` says whether token i ends
 * a sentence (its char, read by the caller). Line breaks count inside the unit, not before it.
 */
export function unitKind(t: TokenBuffer, from: number, to: number, isPunctEnd: (i: number) => boolean): UnitKind {
  let words = 0;
  let solo = 0;
  let marks = 0;
  let lines = 0;
  let blank = false;
  let ends = 0;
  for (let i = from; i < to; i++) {
    const info = t.info[i]!;
    const kind = info & KIND_MASK;
    if (i > from || to - from === 1) {
      if (info & F_BLANK) blank = true;
      if (info & F_LINE) lines++;
    }
    if (kind === K_PUNCT) {
      if (isPunctEnd(i)) ends++;
    } else if (kind === K_MARK) marks++;
    else if (kind === K_SOLO) solo++;
    else words++;
  }
  // a unit of one period also wraps around: the break before its first token comes again after its last
  if (to - from > 1 && t.info[from]! & F_BLANK) blank = true;
  if (to - from > 1 && t.info[from]! & F_LINE) lines++;
  if (words + solo + marks === 0) return 'punctuation';
  if (words + solo === 0) return 'tag';
  if (blank) return 'paragraph';
  if (lines > 0) return 'line';
  if (ends > 0 && words + solo >= 3) return 'sentence';
  if (words + (solo + 1) / 2 <= 1.5) return 'word';
  return 'phrase';
}
