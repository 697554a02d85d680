/**
 * Does the last part of a long output replay what it said before, with edits? The share of the
 * last part's normalised chars (whitespace dropped, each run of digits one mark, letters case
 * folded) that lie in a shingle of SHINGLE chars the output had already said once. A model that
 * replays its scenes or paragraphs with a word changed per sentence keeps most of each
 * sentence's shingles: only those across the changed word are new. Its copies need not run
 * back to back nor be exact, so the copy readings (normalisedCopies.ts, repeats.ts) miss it,
 * and one word changed in every eight breaks the 8-word sequences of restated.ts.
 *
 * Healthy long answers reuse some shingles too (headings, a refrain, a name with its title);
 * code and tables reuse theirs by design, so the caller reads this only where the last part is
 * words and no table. Each shingle is a rolling hash over the normalised chars; the last part's
 * shingles are kept in an open-addressed table and every shingle before it is looked up there:
 * O(n) over the last REPLAY_WINDOW chars of the text.
 */
import { DelimitedTables } from '../../text/delimitedTables.js';
import { type NormalisedTail, normalisedTail, TAIL_WINDOW } from './normalisedTail.js';
import * as shingleHash from './shingleHash.js';

// module-level copies of what the hash loops call per char: an imported binding is read through its module's cell
const { basePower, mixed, rolled } = shingleHash;

export interface Replayed {
  /** Share of the last part's normalised chars inside a shingle said earlier in the output (0 when not read). */
  share: number;
  /** Char offset where the last part starts (-1 when not read). */
  at: number;
  /** Normalised chars read (the window, not the last part alone). */
  chars: number;
  /** The last part is words (two in five of its tokens words with letters, code punctuation under 1%), not code or markup; set by the caller, which has the tokens. */
  words: boolean;
  /** The last part is rows of a delimited table (delimitedTable.ts). */
  table: boolean;
}

export const NOT_REPLAYED: Replayed = { share: 0, at: -1, chars: 0, words: false, table: false };

/** Normalised chars per shingle: about seven words of prose, so a word changed per sentence leaves most shingles whole. */
export const SHINGLE = 32;
/** Chars of the text read back from its end. */
export const REPLAY_WINDOW = TAIL_WINDOW;
/** The last part: this share of the normalised chars read, at most TAIL_MAX of them. */
const TAIL_SHARE = 1 / 3;
const TAIL_MAX = 8192;

/** Normalised chars of prose lines the last part needs to be read. */
const MIN_PROSE = 1024;

/**
 * Is the line that starts at `i` prose, neither a row of data (a tab, two pipes, or two commas or
 * semicolons with fewer spaces than them) nor code (two code marks or more)? Rows of a table and
 * lines of code say their template again by design; they are left out of the share.
 */
function isProseLine(s: string, i: number): boolean {
  let commas = 0;
  let spaces = 0;
  let code = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) continue;
    // most chars are none of those counted: one read of the table tells them
    const f = MARKS[c]!;
    if (f === 0) continue;
    if (f === NEWLINE) break;
    // a tab, or a second code mark (two pipes or two semicolons are two code marks), settles it: the rest of the line
    // is not read
    if (f === TAB) return false;
    if (f === SPACE) spaces++;
    else if (f === COMMA) commas++;
    else if (++code >= 2) return false;
  }
  return commas < 2 || spaces >= commas;
}

/** Per ASCII char, what isProseLine counts it as (0: nothing); code marks are { } [ ] ; = < > | \ ` (restated.ts: not parentheses) */
const NEWLINE = 1;
const TAB = 2;
const SPACE = 3;
const COMMA = 4;
const CODE = 5;
const MARKS = new Uint8Array(128);
for (const c of '{}[]=<>\\`;|') MARKS[c.charCodeAt(0)] = CODE;
MARKS[0x0a] = NEWLINE;
MARKS[0x09] = TAB;
MARKS[0x20] = SPACE;
MARKS[0x2c] = COMMA;

/** What the char that leaves a shingle was multiplied by once SHINGLE more came after it. */
const OUT_POW = basePower(SHINGLE);

/**
 * Scratch arrays shared by every call (the analyzer runs one call at a time): a call writes the
 * cells it reads, so nothing is allocated or cleared per call. The shingle table tells a slot
 * in use by the call's stamp, so it is not cleared either.
 */
/** Per normalised char of the last part: 1 when its line is prose. */
let PROSE = new Uint8Array(0);
/**
 * Per slot, twice the stamp of the call that filled it (plus one when the shingle came before
 * the last part) and the shingle's hash, side by side: one cache line per probe, and the mark of
 * a shingle said before read where the probe already is.
 */
let TABLE = new Int32Array(0);
/** Per shingle of the last part: its slot, and 1 when it came earlier in the last part. */
let SLOTS = new Int32Array(0);
let AGAIN = new Uint8Array(0);
/** One bit per hash of the last part's shingles (its high FILTER_BITS bits, unmixed): most shingles before it are told apart by one read. */
const FILTER_BITS = 16;
const FILTER = new Int32Array(1 << (FILTER_BITS - 5));
let stamp = 0;

/**
 * The replay share of the end of a text. `text` is the text's end from char `offset` on (the
 * last REPLAY_WINDOW chars suffice). Normalised char j is the j-th char of the window that is
 * no whitespace, a run of digits one char. `tables` shares the table readings of the analysis
 * (delimitedTables.ts).
 */
export function replayed(text: string, offset = 0, tail?: NormalisedTail, tables = new DelimitedTables()): Replayed {
  const from = Math.max(0, text.length - REPLAY_WINDOW);
  // the last part is a third of the normalised chars at most and needs MIN_PROSE of them: a shorter window has too few
  if (text.length - from < 3 * MIN_PROSE) return NOT_REPLAYED;
  // the view of the analysis when it is this window's (normalisedTail.ts), else this window's own
  const v = tail && tail.text === text && tail.from === from ? tail : normalisedTail(text, offset, REPLAY_WINDOW);
  const m = v.m;
  const tailLen = Math.min(TAIL_MAX, Math.floor(m * TAIL_SHARE));
  if (tailLen < SHINGLE || m - tailLen < SHINGLE) return NOT_REPLAYED;
  const tailFrom = m - tailLen;
  const start = v.at[tailFrom]! - from;
  const proseChars = proseLines(v, tailFrom, m);
  if (proseChars < MIN_PROSE) return NOT_REPLAYED;
  const covered = coveredChars(v.norm, m, tailFrom);
  return {
    share: covered / proseChars,
    at: offset + from + start,
    chars: m,
    words: false,
    table: tables.of(text.slice(from + start), offset + from + start),
  };
}

/**
 * Writes to PROSE whether the line of each normalised char of the last part (from `tailFrom` to
 * `m` in the view `v`) is prose; returns how many are. Line by line: each line is read once,
 * and its chars found by where the view says they start.
 */
function proseLines(v: NormalisedTail, tailFrom: number, m: number): number {
  if (PROSE.length < m - tailFrom) PROSE = new Uint8Array(m - tailFrom);
  const prose = PROSE;
  const s = v.folded;
  const at = v.at;
  const from = v.from;
  const first = at[tailFrom]! - from;
  let lineStart = first > 0 ? s.lastIndexOf('\n', first - 1) + 1 : 0;
  let k = tailFrom;
  let chars = 0;
  while (k < m) {
    let lineEnd = s.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = s.length;
    const lineProse = isProseLine(s, lineStart) ? 1 : 0;
    const end = from + lineEnd;
    // the line's normalised chars: those from k that start before its end (the view's offsets rise), found by halving
    let lo = k;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    prose.fill(lineProse, k - tailFrom, lo - tailFrom);
    chars += lineProse * (lo - k);
    k = lo;
    lineStart = lineEnd + 1;
  }
  return chars;
}

/**
 * Prose chars of the last part (`norm` from tailFrom to m) that lie in a shingle said earlier in
 * the window: the last part's shingles go in a small table (it stays in cache), then each shingle
 * that ends before the last part is looked up in it, which marks those said before it began.
 */
function coveredChars(norm: Int32Array, m: number, tailFrom: number): number {
  const prose = PROSE;
  const tail = m - tailFrom;
  let size = 64;
  while (size < 2 * tail) size <<= 1;
  const mask = size - 1;
  if (TABLE.length < 2 * size) {
    TABLE = new Int32Array(2 * size);
    SLOTS = new Int32Array(size);
    AGAIN = new Uint8Array(size);
    stamp = 0;
  }
  const table = TABLE;
  const slots = SLOTS;
  const again = AGAIN;
  const filter = FILTER;
  filter.fill(0);
  if (++stamp > 0x3fffffff) {
    table.fill(0);
    stamp = 1;
  }
  // a slot of this call holds used or used + 1 (said before the last part): (cell | 1) === mark tells it
  const used = stamp << 1;
  const mark = used | 1;
  // the shingles that end in the last part (tailFrom >= SHINGLE): each one's slot, and whether it came earlier in it
  let h = 0;
  for (let i = tailFrom - SHINGLE + 1; i < m; i++) {
    h = rolled(h, i - SHINGLE >= tailFrom - SHINGLE + 1 ? norm[i - SHINGLE]! : 0, norm[i]!, OUT_POW);
    if (i < tailFrom) continue;
    const x = mixed(h);
    let slot = (x & mask) << 1;
    while ((table[slot]! | 1) === mark && table[slot + 1] !== x) slot = (slot + 2) & (2 * mask + 1);
    const q = i - tailFrom;
    if ((table[slot]! | 1) === mark) again[q] = 1;
    else {
      again[q] = 0;
      table[slot] = used;
      table[slot + 1] = x;
      const f = h >>> (32 - FILTER_BITS);
      filter[f >>> 5]! |= 1 << (f & 31);
    }
    slots[q] = slot;
  }
  // the shingles that end before it
  h = 0;
  for (let i = 0; i < SHINGLE - 1; i++) h = rolled(h, 0, norm[i]!, OUT_POW);
  for (let i = SHINGLE - 1; i < tailFrom; i++) {
    h = rolled(h, i >= SHINGLE ? norm[i - SHINGLE]! : 0, norm[i]!, OUT_POW);
    // the filter reads the hash's high bits, the best mixed of a rolling hash: most shingles are told apart unmixed
    const f = h >>> (32 - FILTER_BITS);
    if ((filter[f >>> 5]! & (1 << (f & 31))) === 0) continue;
    const x = mixed(h);
    let slot = (x & mask) << 1;
    while ((table[slot]! | 1) === mark && table[slot + 1] !== x) slot = (slot + 2) & (2 * mask + 1);
    if ((table[slot]! | 1) === mark) table[slot] = mark;
  }
  // the chars the shingles said earlier cover, each counted once
  let coveredTo = tailFrom;
  let covered = 0;
  for (let i = tailFrom; i < m; i++) {
    const q = i - tailFrom;
    if (again[q] === 0 && (table[slots[q]!]! & 1) === 0) continue;
    for (let j = Math.max(coveredTo, i - SHINGLE + 1); j <= i; j++) covered += prose[j - tailFrom]!;
    if (i + 1 > coveredTo) coveredTo = i + 1;
  }
  return covered;
}
