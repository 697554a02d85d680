/**
 * The prose of a text, as paragraphs a language identifier can read: split at blank lines,
 * each list item a paragraph of its own, with everything that is not prose left out (fenced and
 * indented code, table rows, markup lines, lines that are mostly symbols, digits or code words,
 * URLs and inline code). What is left is what a reader would call the answer's language; code
 * and data have no language of their own. One pass over the lines with char-code checks (no
 * regular expression per line: the split reads every byte of every answer, the identifier only
 * a few paragraphs), so it costs a few milliseconds per MB.
 */
import { letterCount } from './charClasses.js';
import { endsSentence, firstNonSpace, lastNonSpace, type LineBlock, lineBlocks, TITLE_CHARS } from './lineBlocks.js';
import { type LineProse, proseOf } from './proseLine.js';
import { roughLanguage } from './roughLanguage.js';

/** One prose paragraph: where it starts in the text, what it says (cleaned, lines joined by a space), and its lines. */
export interface ProseParagraph {
  start: number;
  text: string;
  /** Letters of its text, counted as its lines were judged. */
  letters: number;
  lines: number;
  /** True when it is one short line that does not end as a sentence: a title, which opens a section of its own. */
  title: boolean;
}

/** One piece of a paragraph, as the identifier reads it. */
export interface ProseUnit {
  start: number;
  text: string;
  /** Letters of its text, when known without counting them: a unit that is its paragraph's whole text has the paragraph's. */
  letters?: number;
}

/** Chars of a unit at most: the identifier reads a sentence or two at a time, so a switch inside a long paragraph shows. */
export const UNIT_CHARS = 200;
/**
 * True when the line at a is a comment of code: a shebang, a // line, or a # line in a block of
 * several lines. Such comments say what the code does in whatever language the code was written,
 * not the answer's (measured: a German article ending in a shell script with English comments
 * failed).
 */
function isComment(text: string, a: number, several: boolean): boolean {
  const c = text.charCodeAt(a);
  const d = text.charCodeAt(a + 1);
  if (c === 35) return several || d === 33;
  return c === 47 && d === 47;
}

/** The prose paragraphs of one block: its lines read as prose or not, a line that is not splitting it. */
export function blockParagraphs(text: string, block: LineBlock): ProseParagraph[] {
  // a walk that never stops reads every line: its `all` is the block's paragraphs
  return walkParagraphs(text, block, 1, () => true).all ?? [];
}

/** The prose of the line [pos, nl) of a block, or null (see proseOf; a comment of code is none). */
function lineProse(text: string, pos: number, nl: number, several: boolean): LineProse | null {
  const a = firstNonSpace(text, pos, nl);
  return isComment(text, a, several) ? null : proseOf(text, a, lastNonSpace(text, a, nl));
}

/**
 * The paragraphs of a block one at a time, from its start (dir 1) or its end (dir -1), each line
 * read only when the walk reaches it: `take` gets each and returns false to stop (then so does
 * the walk). The paragraphs are blockParagraphs', in its order or the reverse; a walk that stops
 * at the first paragraph of a long block reads only that paragraph's lines and the next one.
 * `all` is every paragraph of the block in text order when every line was read (even if `take`
 * stopped at the last one), null otherwise. `early` (from the start only) gets a paragraph's
 * first unit as soon as its lines read so far fix it, before the rest of its lines are read:
 * false stops the walk there, true goes on (then `take` still gets the whole paragraph).
 */
export function walkParagraphs(
  text: string,
  block: LineBlock,
  dir: 1 | -1,
  take: (p: ProseParagraph) => boolean,
  early?: (u: ProseUnit) => boolean,
): { stopped: boolean; all: ProseParagraph[] | null } {
  // a # line among others is a comment of unfenced code (shell, Python, YAML); a heading stands on a line of its own
  const lines1 = text.indexOf('\n', block.from);
  const several = lines1 >= 0 && lines1 < block.to;
  // the run of prose lines going on, in text order however it was walked
  let pieces: string[] = [];
  let letters = 0;
  let paraStart = -1;
  // chars of the paragraph going on once joined, and whether its first unit went to `early`
  let chars = 0;
  let offered = false;
  const seen: ProseParagraph[] = [];
  const flush = (): boolean => {
    if (pieces.length === 0) return true;
    if (dir < 0) pieces.reverse();
    const para = pieces.join(' ');
    const title = pieces.length === 1 && para.length <= TITLE_CHARS && !endsSentence(para.charCodeAt(para.length - 1));
    const p = { start: paraStart, text: para, letters, lines: pieces.length, title };
    pieces = [];
    letters = 0;
    paraStart = -1;
    chars = 0;
    offered = false;
    seen.push(p);
    return take(p);
  };
  const partly = { stopped: true, all: null };
  if (dir > 0) {
    for (let pos = block.from; pos <= block.to; ) {
      let nl = text.indexOf('\n', pos);
      if (nl < 0 || nl > block.to) nl = block.to;
      const prose = lineProse(text, pos, nl, several);
      if (prose === null) {
        if (!flush()) return partly;
      } else {
        if (paraStart < 0) paraStart = pos;
        chars += pieces.length > 0 ? prose.text.length + 1 : prose.text.length;
        pieces.push(prose.text);
        letters += prose.letters;
        // past UNIT_CHARS chars the first unit ends where it will in the whole paragraph: a walk that wants only it
        // reads none of the paragraph's later lines (on the block's last line none are left: the block is read whole
        // and kept, for the walk from the end)
        if (early !== undefined && !offered && chars > UNIT_CHARS && nl < block.to) {
          offered = true;
          const u = firstUnit(paraStart, pieces.join(' '));
          if (u !== null && !early(u)) return partly;
        }
      }
      pos = nl + 1;
    }
    return { stopped: !flush(), all: seen };
  }
  for (let nl = block.to; nl >= block.from; ) {
    const pos = Math.max(block.from, text.lastIndexOf('\n', nl - 1) + 1);
    const prose = lineProse(text, pos, nl, several);
    if (prose === null) {
      if (!flush()) return partly;
    } else {
      paraStart = pos;
      pieces.push(prose.text);
      letters += prose.letters;
    }
    nl = pos - 1;
  }
  return { stopped: !flush(), all: seen.reverse() };
}

/** `read` of a unit's text, kept by the unit's start (units start at distinct offsets) and read once. */
function readOnce<T>(kept: Map<number, T>, u: ProseUnit, read: (text: string) => T): T {
  let v = kept.get(u.start);
  if (v === undefined) {
    v = read(u.text);
    kept.set(u.start, v);
  }
  return v;
}

/** The prose paragraphs of block b of a text, read once however often asked for. */
export type ParagraphsOf = (b: number) => ProseParagraph[];

/**
 * The paragraphs of each block of a text, each block read on demand and kept once read whole:
 * the walks from the two ends, the ends, the sample and the titles share them.
 */
export class ParagraphCache {
  private readonly read: Array<ProseParagraph[] | undefined>;
  /** Letters of the units counted so far, by start (units start at distinct offsets); made on first use. */
  private counted: Map<number, number> | null = null;
  /** Rough languages of the units read so far, by start: the shortcut's walks and the judge's walk over the ends read the same units. */
  private rough: Map<number, string | null> | null = null;

  constructor(
    private readonly text: string,
    readonly blocks: readonly LineBlock[],
  ) {
    this.read = new Array(blocks.length);
  }

  /** Every paragraph of block b. */
  readonly of: ParagraphsOf = (b) => {
    let p = this.read[b];
    if (p === undefined) {
      p = blockParagraphs(this.text, this.blocks[b]!);
      this.read[b] = p;
    }
    return p;
  };

  /** The letters of a unit of this text, counted once however often asked for (the shortcut, the ends and the sample count the same units). */
  letters(u: ProseUnit): number {
    if (u.letters !== undefined) return u.letters;
    this.counted ??= new Map();
    return readOnce(this.counted, u, letterCount);
  }

  /** The rough language of a unit of this text (roughLanguage), read once however often asked for. */
  roughOf(u: ProseUnit): string | null {
    this.rough ??= new Map();
    return readOnce(this.rough, u, roughLanguage);
  }

  /** walkParagraphs over block b (from what is kept when it was read whole); false when `take` or `early` stopped it. */
  walk(b: number, dir: 1 | -1, take: (p: ProseParagraph) => boolean, early?: (u: ProseUnit) => boolean): boolean {
    const known = this.read[b];
    if (known !== undefined) {
      for (let i = dir > 0 ? 0 : known.length - 1; i >= 0 && i < known.length; i += dir) if (!take(known[i]!)) return false;
      return true;
    }
    const r = walkParagraphs(this.text, this.blocks[b]!, dir, take, early);
    if (r.all !== null) this.read[b] = r.all;
    return !r.stopped;
  }
}

/** The prose paragraphs of a whole text, in order (every block read: the detector reads only the blocks it needs). */
export function proseParagraphs(text: string): ProseParagraph[] {
  return lineBlocks(text).flatMap((b) => blockParagraphs(text, b));
}

/** Where the piece of a paragraph's text that starts at `at` ends: about UNIT_CHARS on, at a space when there is one. */
function pieceEnd(text: string, at: number): number {
  const end = Math.min(text.length, at + UNIT_CHARS);
  if (end === text.length) return end;
  const space = text.lastIndexOf(' ', end);
  return space > at + UNIT_CHARS / 2 ? space : end;
}

/** The first unit of a paragraph that starts at `start` and whose text begins with `text` (more than UNIT_CHARS chars), or null as pieceUnit. */
function firstUnit(start: number, text: string): ProseUnit | null {
  const piece = text.slice(0, pieceEnd(text, 0)).trim();
  return piece.length === 0 ? null : { start, text: piece };
}

/** The unit of the piece [at, end) of a paragraph, or null when the piece is only spaces (then it is no unit). */
function pieceUnit(p: ProseParagraph, at: number, end: number): ProseUnit | null {
  const piece = p.text.slice(at, end).trim();
  if (piece.length === 0) return null;
  // the whole paragraph (trimmed of spaces only): its letters are the paragraph's, counted when its lines were judged
  return at === 0 && end === p.text.length ? { start: p.start, text: piece, letters: p.letters } : { start: p.start + at, text: piece };
}

/** The paragraph cut into units of about UNIT_CHARS, at a space when there is one; at most `max` from its start. */
export function paragraphUnits(p: ProseParagraph, max = Number.POSITIVE_INFINITY): ProseUnit[] {
  const out: ProseUnit[] = [];
  const text = p.text;
  for (let at = 0; at < text.length && out.length < max; ) {
    const end = pieceEnd(text, at);
    const u = pieceUnit(p, at, end);
    if (u !== null) out.push(u);
    at = end;
  }
  return out;
}

/**
 * The units of a paragraph one at a time, as paragraphUnits cuts them, from its first (dir 1) or
 * its last (dir -1): `take` gets each and returns false to stop. Only the units reached are
 * sliced (a walk from the end finds where the pieces end first, without slicing them): a long
 * paragraph read for its first or last unit costs that unit.
 */
export function eachParagraphUnit(p: ProseParagraph, dir: 1 | -1, take: (u: ProseUnit) => boolean): boolean {
  const text = p.text;
  if (dir > 0) {
    for (let at = 0; at < text.length; ) {
      const end = pieceEnd(text, at);
      const u = pieceUnit(p, at, end);
      if (u !== null && !take(u)) return false;
      at = end;
    }
    return true;
  }
  const ends: number[] = [];
  for (let at = 0; at < text.length; at = ends[ends.length - 1]!) ends.push(pieceEnd(text, at));
  for (let k = ends.length - 1; k >= 0; k--) {
    const u = pieceUnit(p, k > 0 ? ends[k - 1]! : 0, ends[k]!);
    if (u !== null && !take(u)) return false;
  }
  return true;
}
