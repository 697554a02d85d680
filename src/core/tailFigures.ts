/**
 * The learned verdict's generic figures of a text (issue 37): what no detector judges but
 * carried weight in the study, read from the tail (the last 2 KB) and one pass over the lines,
 * so their cost is bounded whatever the length. Shared by the features used in training
 * (verdictFeatures.ts) and the reader that scores a text at run time (verdictFeatureReader.ts).
 */
import { deflateRawSync } from 'node:zlib';
import { GZIP_OVERHEAD } from './compression.js';
import { IntTable } from './intTable.js';
import { isJsSpace } from './text/jsSpace.js';

/** Chars of the tail the gzip ratio, the mixed-word share and the n-grams read. */
export const TAIL_CHARS = 2048;
/** Chars of the tail the longest repeated substring is sought in (binary search × hashing: ~11 passes). */
const REPEAT_CHARS = 1024;
/** Words of the tail the distinct n-gram ratios are counted over. */
const NGRAM_TOKENS = 200;

/** The generic figures' names, in the order genericFigures returns them. */
export const GENERIC = [
  'text.logChars',
  'text.tailGzip',
  'text.distinct2',
  'text.distinct3',
  'text.distinct4',
  'text.repeatRaw',
  'text.repeatNormalised',
  'text.blankLines',
  'text.logLongestLine',
  'text.mixedWords',
] as const;

/**
 * Deflate's options for the tail: level 6 as gzip's default, and an output chunk of 4 KB in
 * place of 16 KB (a 2 KB tail deflates to less; a longer output is joined from several chunks,
 * byte for byte the same). The window and the hash table (windowBits, memLevel) stay the
 * defaults, so the stream is the one the model was trained on.
 */
const DEFLATE = { level: 6, chunkSize: 4096 } as const;

/**
 * The generic figures, in GENERIC order: the tail (last 2 KB) and the whole text (line shape only).
 * `wholeRatio` is the whole text's gzip ratio when the analysis has it (compression.ts): for a text
 * no longer than its tail, the tail's deflate is that of the whole text, byte for byte (a window
 * that holds the whole input gives the same stream whatever its size), so its length is read back
 * from the ratio instead of deflating the text again, which is most of the cost of a short text's
 * figures.
 */
export function genericFigures(tail: string, text: string, wholeRatio?: number): number[] {
  const utf8 = Buffer.from(tail, 'utf8');
  const bytes = utf8.length;
  const deflated =
    wholeRatio !== undefined && tail.length === text.length
      ? // the whole-text ratio counts gzip's header and trailer, the tail's raw deflate does not
        Math.round(wholeRatio * bytes) - GZIP_OVERHEAD
      : deflateRawSync(utf8, DEFLATE).length;
  const gzip = bytes === 0 ? 1 : deflated / bytes;
  const words = tailWords(tail);
  const ids = wordIds(tail, words, Math.max(0, words.count - NGRAM_TOKENS));
  const short = tail.slice(-REPEAT_CHARS);
  const lines = lineShape(text);
  return [
    Math.log1p(text.length),
    gzip,
    distinctIdShare(ids, 2),
    distinctIdShare(ids, 3),
    distinctIdShare(ids, 4),
    short.length === 0 ? 0 : longestRepeat(short) / short.length,
    normalisedRepeatShare(short),
    lines.blankShare,
    Math.log1p(lines.longest),
    words.count === 0 ? 0 : words.mixed / words.count,
  ];
}

/** Distinct n-grams over n-grams of the words (1 when there are fewer than n words); n-grams compared by a 32-bit hash of word ids. */
export function distinctShare(words: readonly string[], n: number): number {
  const idOf = new Map<string, number>();
  return distinctIdShare(
    words.map((w) => idOf.get(w) ?? idOf.set(w, idOf.size).size - 1),
    n,
  );
}

/** Slots of the n-gram table: a power of two, at least twice the n-grams of NGRAM_TOKENS words. */
const NGRAM_SLOTS = 512;
const ngrams = new IntTable(NGRAM_SLOTS);

function distinctIdShare(ids: ArrayLike<number>, n: number): number {
  const total = ids.length - n + 1;
  if (total <= 0) return 1;
  // a caller other than genericFigures (distinctShare) may pass more words than the table holds
  const table = total * 2 <= NGRAM_SLOTS ? ngrams : new IntTable(1 << (32 - Math.clz32(total * 2 - 1)));
  table.clear();
  const { mask, keys, stampOf, stamp } = table;
  let distinct = 0;
  for (let i = 0; i < total; i++) {
    let h = 0x811c9dc5 | 0;
    for (let k = 0; k < n; k++) h = Math.imul(h ^ ids[i + k]!, 0x01000193);
    let slot = (h ^ (h >>> 15)) & mask;
    while (stampOf[slot] === stamp && keys[slot] !== h) slot = (slot + 1) & mask;
    if (stampOf[slot] === stamp) continue;
    stampOf[slot] = stamp;
    keys[slot] = h;
    distinct++;
  }
  return distinct / total;
}

/** The tail's words as `tail.split(/\s+/)` gives them (empty ones left out): where each starts and ends, and how many mix a letter and a digit. */
interface TailWords {
  count: number;
  starts: Int32Array;
  ends: Int32Array;
  /** Each word's FNV-1a hash of its UTF-16 units, taken on the same pass. */
  hashes: Int32Array;
  mixed: number;
}

/** A letter in the Unicode sense; made once (a literal in the loop is a new object each word). */
const LETTER = /\p{L}/u;

/** Word bounds of a tail of up to TAIL_CHARS chars, reused by every call (a longer tail gets its own). */
const wordStarts = new Int32Array((TAIL_CHARS >> 1) + 1);
const wordEnds = new Int32Array(wordStarts.length);
const wordHashes = new Int32Array(wordStarts.length);

/**
 * One pass over the tail in place of a split, a filter and two regular expressions a word: a
 * word mixes a letter and a digit when it has an ASCII digit (what `\d` matches) and a letter.
 * An ASCII letter is one; a word with a digit, no ASCII letter and some char past ASCII is
 * asked of `\p{L}` (an ASCII char that is not a letter is no letter).
 */
function tailWords(tail: string): TailWords {
  const n = tail.length;
  const own = (n >> 1) + 1 > wordStarts.length;
  const starts = own ? new Int32Array((n >> 1) + 1) : wordStarts;
  const ends = own ? new Int32Array(starts.length) : wordEnds;
  const hashes = own ? new Int32Array(starts.length) : wordHashes;
  let count = 0;
  let h = FNV_OFFSET;
  let mixed = 0;
  let start = -1;
  let digit = false;
  let letter = false;
  let beyond = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? tail.charCodeAt(i) : 32;
    if (isJsSpace(c)) {
      if (start < 0) continue;
      starts[count] = start;
      ends[count] = i;
      hashes[count] = h;
      count++;
      h = FNV_OFFSET;
      if (digit && (letter || (beyond && LETTER.test(tail.slice(start, i))))) mixed++;
      start = -1;
      digit = false;
      letter = false;
      beyond = false;
    } else {
      if (start < 0) start = i;
      h = Math.imul(h ^ c, FNV_PRIME);
      if (c >= 48 && c <= 57) digit = true;
      else if ((c | 32) >= 97 && (c | 32) <= 122) letter = true;
      else if (c >= 128) beyond = true;
    }
  }
  return { count, starts, ends, hashes, mixed };
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Slots of the word table: a power of two, at least twice NGRAM_TOKENS. */
const WORD_SLOTS = 512;
const wordTable = new IntTable(WORD_SLOTS);
/** For each slot of the word table in use, the word (its index in TailWords) that took it. */
const wordOf = new Int32Array(WORD_SLOTS);
/** For each slot of the word table in use, the id it gives its word. */
const idOfSlot = new Int32Array(WORD_SLOTS);

/**
 * Ids of the words from `from` on, numbered by first appearance (as distinctShare numbers them).
 * Words are found by their hash (tailWords) and told apart by comparing the chars, so no word
 * is cut out of the tail as a string of its own.
 */
function wordIds(tail: string, words: TailWords, from: number): Int32Array {
  const ids = new Int32Array(words.count - from);
  if (ids.length * 2 > WORD_SLOTS) throw new Error(`verdict features: ids are given to at most ${WORD_SLOTS / 2} words, got ${ids.length}`);
  wordTable.clear();
  const { mask, keys, stampOf, stamp } = wordTable;
  const { starts, ends, hashes } = words;
  let next = 0;
  for (let k = from; k < words.count; k++) {
    const a = starts[k]!;
    const b = ends[k]!;
    const h = hashes[k]!;
    let slot = (h ^ (h >>> 15)) & mask;
    let id = -1;
    while (stampOf[slot] === stamp) {
      if (keys[slot] === h && sameWord(tail, starts[wordOf[slot]!]!, ends[wordOf[slot]!]!, a, b)) {
        id = idOfSlot[slot]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (id < 0) {
      id = next++;
      stampOf[slot] = stamp;
      keys[slot] = h;
      wordOf[slot] = k;
      idOfSlot[slot] = id;
    }
    ids[k - from] = id;
  }
  return ids;
}

function sameWord(s: string, a0: number, a1: number, b0: number, b1: number): boolean {
  if (a1 - a0 !== b1 - b0) return false;
  for (let k = 0; k < a1 - a0; k++) if (s.charCodeAt(a0 + k) !== s.charCodeAt(b0 + k)) return false;
  return true;
}

/**
 * The longest string a repeat is sought in: REPEAT_CHARS, or twice that for the normalised tail,
 * since toLowerCase makes two chars of one (U+0130, the Turkish dotted capital I).
 */
const MAX_REPEAT_CHARS = 2 * REPEAT_CHARS;
/** The chars a repeat is sought in, copied out of the string: a typed array reads faster than charCodeAt on a slice of a slice. */
const codes = new Uint16Array(MAX_REPEAT_CHARS);

/**
 * The longest repeat of the short tail with every run of white space one space, every ASCII
 * digit a 0 and the letters lowered: what `s.replace(/\s+/g, ' ').replace(/\d/g, '0').toLowerCase()`
 * gives, built in one pass (the same isSpace as the words). ASCII letters are lowered on the
 * way; a tail with any other char goes through toLowerCase itself, whose context rule (a final
 * sigma) and two-char result (U+0130) a char-by-char lowering would not follow. Lowering the
 * ASCII first changes nothing there: an ASCII letter is a cased letter in either case.
 */
function normalisedRepeatShare(s: string): number {
  if (s.length > REPEAT_CHARS)
    throw new Error(`verdict features: a normalised repeat is sought in at most ${REPEAT_CHARS} chars, got ${s.length}`);
  let len = 0;
  let space = false;
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isJsSpace(c)) {
      if (!space) codes[len++] = 32;
      space = true;
    } else {
      space = false;
      if (c >= 48 && c <= 57) codes[len++] = 48;
      else if (c >= 65 && c <= 90) codes[len++] = c + 32;
      else {
        if (c >= 128) ascii = false;
        codes[len++] = c;
      }
    }
  }
  if (len === 0) return 0;
  if (!ascii) {
    const lowered = String.fromCharCode.apply(null, codes.subarray(0, len) as unknown as number[]).toLowerCase();
    len = lowered.length;
    for (let i = 0; i < len; i++) codes[i] = lowered.charCodeAt(i);
  }
  return repeatOfCodes(len) / len;
}

/**
 * Length of the longest substring that occurs twice (the copies may overlap), in a string of
 * at most MAX_REPEAT_CHARS chars (2048).
 */
export function longestRepeat(s: string): number {
  const n = s.length;
  if (n > MAX_REPEAT_CHARS) throw new Error(`verdict features: a repeat is sought in at most ${MAX_REPEAT_CHARS} chars, got ${n}`);
  for (let i = 0; i < n; i++) codes[i] = s.charCodeAt(i);
  return repeatOfCodes(n);
}

/**
 * The longest repeat of the first n chars of `codes`. Each pass asks whether some substring
 * of a given length occurs twice (every window hashed once, a hash match checked char by char)
 * and, when one does, extends that pair of copies both ways, so a pass answers "at least this
 * long". Passes first ask for one char more than the longest pair found so far: the first pair
 * of each new length is usually the longest, so most texts take a few passes that stop early
 * and one that does not, where a binary search from the text's length took about 11 full ones.
 * After REPEAT_STEPS such passes it falls back to the binary search, which bounds the worst case.
 */
function repeatOfCodes(n: number): number {
  let lo = 0;
  let hi = n - 1;
  let steps = 0;
  while (lo < hi) {
    const mid = steps < REPEAT_STEPS ? lo + 1 : (lo + hi + 1) >> 1;
    steps++;
    const found = repeatLength(n, mid);
    if (found > 0) lo = found;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/** Passes that ask for one char more than the longest repeat found, before the binary search. */
const REPEAT_STEPS = 12;
const BASE = 0x01000193;
/** Slots of the hash table of window starts: a power of two, twice MAX_REPEAT_CHARS (a string of up to REPEAT_CHARS uses half). */
const SLOTS_REPEAT = 2 * MAX_REPEAT_CHARS;
const startOf = new Int32Array(SLOTS_REPEAT);
const hashOf = new Int32Array(SLOTS_REPEAT);
/** The pass that last wrote each slot: a slot of another pass is empty, so no pass clears the table. */
const passOf = new Int32Array(SLOTS_REPEAT);
let pass = 0;

/**
 * 0 when no substring of `len` chars of the first n codes occurs twice; else the length of the
 * first such pair of copies found, extended both ways as far as they agree (at least `len`,
 * and a repeat itself).
 */
function repeatLength(n: number, len: number): number {
  if (pass === 0x7fffffff) {
    passOf.fill(0);
    pass = 0;
  }
  pass++;
  const c = codes;
  const mask = (n <= SLOTS_REPEAT / 4 ? SLOTS_REPEAT / 2 : SLOTS_REPEAT) - 1;
  let pow = 1;
  for (let i = 1; i < len; i++) pow = Math.imul(pow, BASE);
  let h = 0;
  for (let i = 0; i < len; i++) h = (Math.imul(h, BASE) + c[i]!) | 0;
  for (let i = 0; ; i++) {
    let slot = (h ^ (h >>> 15)) & mask;
    while (passOf[slot] === pass) {
      const j = startOf[slot]!;
      if (hashOf[slot] === h && sameCodes(j, i, len)) return extended(n, j, i, len);
      slot = (slot + 1) & mask;
    }
    passOf[slot] = pass;
    startOf[slot] = i;
    hashOf[slot] = h;
    if (i + len >= n) return 0;
    h = (Math.imul(h - Math.imul(c[i]!, pow), BASE) + c[i + len]!) | 0;
  }
}

/** The length of the copies at a < b that agree for `len` chars, extended back and forth (within n) as far as they agree. */
function extended(n: number, a: number, b: number, len: number): number {
  const c = codes;
  let back = 0;
  while (a - back > 0 && c[a - back - 1] === c[b - back - 1]) back++;
  let on = len;
  while (b + on < n && c[a + on] === c[b + on]) on++;
  return back + on;
}

function sameCodes(a: number, b: number, len: number): boolean {
  const c = codes;
  for (let k = 0; k < len; k++) if (c[a + k] !== c[b + k]) return false;
  return true;
}

/** Lines found with indexOf (a native search) and read only up to their first char that is not a space, a tab or a CR. */
function lineShape(text: string): { blankShare: number; longest: number } {
  let lines = 0;
  let blank = 0;
  let longest = 0;
  for (let start = 0; ; ) {
    const found = text.indexOf('\n', start);
    const end = found < 0 ? text.length : found;
    lines++;
    let k = start;
    for (; k < end; k++) {
      const c = text.charCodeAt(k);
      if (c !== 32 && c !== 9 && c !== 13) break;
    }
    if (k === end) blank++;
    if (end - start > longest) longest = end - start;
    if (found < 0) break;
    start = end + 1;
  }
  return { blankShare: text.length === 0 ? 0 : blank / lines, longest };
}
