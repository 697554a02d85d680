/** The chunks of a text as readChunks (wordShapes.ts) leaves them: one entry per chunk, in typed arrays. */

/** Chunk flags. */
export const C_MALFORMED = 1;
export const C_FUNC = 2;
/** Punctuation or a line break right after it: a clause, list item or line ends. */
export const C_BREAK = 4;
/** Letters of two scripts glued (counted as malformed only where the prose is in a spaced script). */
export const C_GLUE = 8;
/** Code punctuation inside it ({ } ( ) [ ] ; = < > | \ _): a chunk of code or data. */
export const C_CODEISH = 16;
/** It starts a line. */
export const C_LINE = 32;
/** A word of it is not all lower-case letters (a capital or a digit in it): what a random code needs. */
export const C_CASED = 64;
/** The chunk before it had no letters or was code (a list marker "1.", a table's "|", a brace): it opens an item or a cell. */
export const C_AFTER = 128;
/** A number outside its words ("m-0", "x 2"): a letter beside digits is a field or a label, no letter spelt out. */
export const C_DIGITS = 256;
/**
 * A chunk of two or three letters with a letter past ASCII in it ("để", "tập", "на"): a syllable of
 * a language that writes short syllables apart with their marks (Vietnamese), not a piece cut
 * from a word. Set on short chunks only.
 */
export const C_NONASCII = 512;
/** A sentence ends right after it: one full stop, "!" or "?" (not an ellipsis, not "?!"). */
export const C_STOP = 1024;
/**
 * A word of 25+ lower-case letters in it (C_MALFORMED for its length alone): words run together, or a compound of a
 * language that writes them as one word (Finnish, Swedish, Dutch: `tyhjätilamerkkiesikäsittely`).
 */
export const C_LONG = 2048;
/**
 * Two spaces or a tab after it, no line break: the gap between the columns of a table or of aligned output ("total
 * used   free"). The window readings count it as a break (a header row is cells, not words strung); the script a text
 * opens in and the end words do not (a clause of prose goes on past a gap).
 */
export const C_GAP = 4096;
/**
 * A single letter in a run of five or more that each follow the one before in the alphabet (`a b c d e f`): the
 * alphabet or a part of it listed, not a word spelt out letter by letter (no English word holds five letters in a row
 * of the alphabet).
 */
export const C_SEQUENCE = 8192;

/** Letters from which a chunk is no word of a list or of prose: words glued, a URL or a hash (runOnList.ts, wordLines.ts). */
export const LONG_CHUNK = 30;

export interface Chunks {
  n: number;
  /** Char offset where each chunk starts. */
  start: Int32Array;
  /** Its C_* flags: fourteen bits, so 16 a chunk. */
  flags: Uint16Array;
  /** Script group of most of its letters (SC_*). */
  script: Uint8Array;
  /** Its letters (solo letters count one each), and those of its main script. */
  letters: Int32Array;
  scriptLetters: Int32Array;
  /** A hash of its words (case folded), punctuation aside: the same word is the same key. */
  key: Int32Array;
  /**
   * Punctuation where no language puts it, in it or in the chunks without letters right after
   * it: marks doubled or mixed (",,", "..", ",.", "!!!"); "!" or "?" before a lower-case word
   * ("I! can!"); a chunk of punctuation alone with a comma or a dot ("**.") or with a run of
   * backslashes, slashes or bars. Not an ellipsis, "?!", an abbreviation's dot before a comma
   * ("etc.,"), an operator ("?:", "??") or colons ("::"). Bit 0: in the chunk; the rest: how
   * many letterless chunks of it follow.
   */
  noise: Uint8Array;
  /** A token inside a fenced code block was met and left out (the prose reading): the fenced reading is worth making. */
  fenced: boolean;
}

/** Chunks with room for `cap` (readChunks grows them as it needs). */
export function emptyChunks(cap = 16): Chunks {
  return {
    n: 0,
    start: new Int32Array(cap),
    flags: new Uint16Array(cap),
    script: new Uint8Array(cap),
    letters: new Int32Array(cap),
    scriptLetters: new Int32Array(cap),
    key: new Int32Array(cap),
    noise: new Uint8Array(cap),
    fenced: false,
  };
}

/** Room for `atLeast` chunks (twice the room there is, when not given), the first `n` kept. */
export function grow(c: Chunks, atLeast = 0): void {
  const size = Math.max(c.start.length * 2, atLeast);
  c.start = grown(c.start, new Int32Array(size), c.n);
  c.flags = grown(c.flags, new Uint16Array(size), c.n);
  c.script = grown(c.script, new Uint8Array(size), c.n);
  c.letters = grown(c.letters, new Int32Array(size), c.n);
  c.scriptLetters = grown(c.scriptLetters, new Int32Array(size), c.n);
  c.key = grown(c.key, new Int32Array(size), c.n);
  c.noise = grown(c.noise, new Uint8Array(size), c.n);
}

function grown<A extends Int32Array | Uint16Array | Uint8Array>(from: A, to: A, n: number): A {
  if (n > 0) to.set(from.subarray(0, n));
  return to;
}

/**
 * The chunks of the last reading, one set for the prose and one for the fenced blocks: each call
 * overwrites its set (grown when the text needs more room, let go for a far shorter text), so a
 * reading uses its chunks before the next one of the same kind. Allocating the arrays anew for
 * every text cost more than reading a short one.
 */
let PROSE = emptyChunks();
let FENCED = emptyChunks();
/** Room (in chunks) from which a set much larger than the text needs is let go rather than kept for the next text. */
const KEEP_ROOM = 1 << 16;

/**
 * The set of chunks for the next reading of its kind (prose, or fenced blocks when `fenced`),
 * emptied, with room for `room` chunks.
 */
export function chunkSet(fenced: boolean, room: number): Chunks {
  let out = fenced ? FENCED : PROSE;
  // a set grown for a long text is let go when a far shorter one comes, so the process keeps no more than the text needs
  if (out.start.length > KEEP_ROOM && out.start.length > 8 * room) {
    out = emptyChunks(room);
    if (fenced) FENCED = out;
    else PROSE = out;
  }
  out.n = 0;
  out.fenced = false;
  if (out.start.length < room) grow(out, room);
  return out;
}

/**
 * How many chunks of [from, to) repeat the key of one before them in it, among those whose flags
 * hold every bit of `only` (0: every chunk).
 */
export function keyRepeats(c: Chunks, from: number, to: number, only = 0): number {
  const seen = new Set<number>();
  let repeats = 0;
  for (let k = from; k < to; k++) {
    if ((c.flags[k]! & only) !== only) continue;
    if (seen.has(c.key[k]!)) repeats++;
    else seen.add(c.key[k]!);
  }
  return repeats;
}
