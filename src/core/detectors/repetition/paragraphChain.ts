/**
 * Paragraphs at the end that each say the one before again, with something added: a model that
 * restates the same person or answer paragraph after paragraph while a list in it grows ("… she
 * enjoys hiking, painting." then "… hiking, painting, chess."). No copies run back to back (each
 * is longer), the returns are too few for the cycle rule, and the output is too short for the
 * replay share; but each paragraph holds most of the one before it.
 *
 * Read back from the end, paragraph by paragraph (blank lines part them): a paragraph holds the
 * one before when CONTAINED of that one's normalised shingles (SHINGLE chars, whitespace dropped,
 * case folded, each run of digits one mark) are among its own and it is GROWTH chars longer (the
 * same text said again is the loop readings'; a template filled with another name is no longer). The chain stops at the first paragraph that does not; most texts stop at once, so
 * two paragraphs are read.
 */

export interface ParagraphChain {
  /** Paragraphs at the end that each hold the one before (0 when the last does not). */
  links: number;
  /** Char offset where the first paragraph of the chain starts (-1 when there is no link). */
  at: number;
  /** The chain is words (two in five of its tokens words with letters, code punctuation under 1%); set by the caller, which has the tokens. */
  words: boolean;
}

export const NO_CHAIN: ParagraphChain = { links: 0, at: -1, words: false };

/** Normalised chars per shingle: two or three words, so a word changed spoils a dozen shingles, not the paragraph. */
const SHINGLE = 12;
/** Share of the paragraph before's shingles a paragraph holds when it says it again. */
const CONTAINED = 0.8;
/** Normalised chars a paragraph adds to the one before, at least: a word or an item, past a name spelt one or two letters longer in a template. */
const GROWTH = 3;
/** Normalised chars a paragraph needs to be read: a sentence, past headings and list labels. */
const MIN_CHARS = 60;
/** Chars of the text read back from its end. */
const WINDOW = 16_384;

/** The chain of paragraphs at the end of `text` (char offsets from `offset`, where `text` starts in the output). */
export function paragraphChain(text: string, offset = 0): ParagraphChain {
  const from = Math.max(0, text.length - WINDOW);
  let end = text.length;
  let later: Set<number> | null = null;
  let laterChars = 0;
  let links = 0;
  let at = -1;
  while (end > from) {
    const start = paragraphStart(text, end, from);
    const body = text.slice(start, end);
    const norm = normalised(body);
    if (norm.length < MIN_CHARS) break;
    const own = shingles(norm);
    if (later) {
      let held = 0;
      for (const h of own) if (later.has(h)) held++;
      if (held < CONTAINED * own.size || laterChars < norm.length + GROWTH) break;
      links++;
      at = offset + start;
    }
    later = own;
    laterChars = norm.length;
    end = blankBefore(text, start, from);
  }
  return links === 0 ? NO_CHAIN : { links, at, words: false };
}

/** Where the paragraph that ends at `end` starts: after the last blank line before it, or at `from`. */
function paragraphStart(text: string, end: number, from: number): number {
  let lineStart = text.lastIndexOf('\n', end - 1) + 1;
  while (lineStart > from) {
    const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    if (isBlank(text, Math.max(prevStart, from), lineStart - 1)) return lineStart;
    lineStart = prevStart;
  }
  return Math.max(lineStart, from);
}

/** The end of the text before the blank lines that precede `start` (where the paragraph before ends). */
function blankBefore(text: string, start: number, from: number): number {
  let end = start;
  while (end > from && isSpaceCode(text.charCodeAt(end - 1))) end--;
  return end;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpaceCode(text.charCodeAt(i))) return false;
  return true;
}

function isSpaceCode(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x3000;
}

/** Whitespace dropped, case folded, each run of digits one mark. */
function normalised(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/[0-9]+/g, '0');
}

/** The hashes of the SHINGLE-char pieces of `s`. */
function shingles(s: string): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i + SHINGLE <= s.length; i++) {
    let h = 0x811c9dc5 | 0;
    for (let k = i; k < i + SHINGLE; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
    out.add(h);
  }
  return out;
}
