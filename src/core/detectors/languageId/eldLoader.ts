/**
 * Language identification with eld's `small` n-gram table, read the first time a text needs it.
 * The table's module evaluates 1.6 MB of n-gram data (~0.35 s), which a static import would make
 * every process that imports the core pay: `--help`, a short analysis, the daemon's start. It is
 * loaded by a synchronous require of the ES module (Node.js 20.19 and later), so the analyzer stays
 * synchronous and pure.
 *
 * The scoring is done here, on eld's own table, byte dictionary and separators, with the language
 * and score eld's `detect` gives (a test compares the two on written texts in 30 languages and on
 * every unit the real corpora send): eld's `detect` spends most of its time walking each n-gram's
 * scores as object keys and ordering every language's score, where the judge needs the top one.
 * Measured on the 642 units the three real corpora send: 27 ms with `detect` and `getScores`, 6 ms
 * here (docs/detection.md, "Language per paragraph").
 *
 * eld is pinned to 2.1.0 in package.json, since the loader reads files of eld that are no public
 * entry of it (an upgrade is a deliberate change, checked by eldLoader.test.ts).
 *
 * eld's scheme (eld 2.1, Apache-2.0): the text's first 1,000 chars, separators made spaces, trimmed
 * and lowercased; each word spelt as its UTF-8 bytes (each byte one char of eld's dictionary), the
 * words read up to ~350 bytes; the distinct n-grams of 4 bytes at a stride of 3 in each word (the
 * first one marked by a leading space, the last one by a trailing space); a language's score is the
 * sum over those n-grams of its table weight plus 53 (the table stores weights less 53), divided by
 * the number of distinct n-grams, and scaled to 0-1 as s / (s + 25).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What the loader needs of eld's files. */
interface EldTable {
  /** Language codes by index. */
  codes: string[];
  /** N-gram → its weights, read from eld's table on first use: pairs of (language index, weight + 53). */
  ngrams: Record<string, Record<string, number> | undefined>;
  /** One char per byte value, as eld spells bytes. */
  dictionary: readonly string[];
  /** What eld replaces with a space before reading words. */
  separators: RegExp;
}

let table: EldTable | null = null;

/** eld's chars of text read, bytes of words read (the word under way is finished), and bytes read at most. */
const TEXT_CHARS = 1000;
const WORD_BYTES = 350;
const MAX_BYTES = 380;
/** The weight eld's table leaves out of every stored weight. */
const BASE_WEIGHT = 53;
/** eld's scale of a mean n-gram score to 0-1: s / (s + SCALE). */
const SCALE = 25;
/** Chars of a word eld reads n-grams from. */
const WORD_CHARS = 70;

/** eld's table, dictionary and separators, loaded on first call; a clear error when they cannot be. */
function loaded(): EldTable {
  if (table) return table;
  const require = createRequire(import.meta.url);
  // eld exports `import` conditions only, and its table by the entry's path: resolve the entry as an import would
  let entry = '';
  try {
    entry = import.meta.resolve('eld/small');
    const data = require(fileURLToPath(new URL('../ngrams/small.js', entry))) as { ngramsData?: { languages?: unknown; ngrams?: unknown } };
    const patterns = require(fileURLToPath(new URL('../regexPatterns.js', entry))) as { separators?: unknown };
    const bytes = require(fileURLToPath(new URL('../dictionary.js', entry))) as { dictionary?: unknown };
    const languages = data.ngramsData?.languages;
    const ngrams = data.ngramsData?.ngrams;
    if (typeof languages !== 'object' || languages === null || typeof ngrams !== 'object' || ngrams === null)
      throw new Error('ngrams/small.js has no ngramsData with languages and ngrams');
    if (!(patterns.separators instanceof RegExp)) throw new Error('regexPatterns.js has no separators pattern');
    if (!Array.isArray(bytes.dictionary) || bytes.dictionary.length !== 256) throw new Error('dictionary.js has no 256-entry dictionary');
    const codes: string[] = [];
    for (const [k, v] of Object.entries(languages as Record<string, unknown>)) codes[Number(k)] = String(v);
    table = {
      codes,
      ngrams: ngrams as EldTable['ngrams'],
      dictionary: bytes.dictionary as string[],
      separators: patterns.separators,
    };
  } catch (err) {
    throw new Error(
      `language_switch cannot load its language identifier (the eld package's small table${entry ? ` beside ${entry}` : ''}): ${(err as Error).message}. It needs Node.js 20.19 or later (require of an ES module) and eld 2.1 installed`,
    );
  }
  return table;
}

/** True once the identifier is loaded (for the test that keeps the load lazy). */
export function eldLoaded(): boolean {
  return table !== null;
}

/**
 * Each n-gram's weights, read from eld's table the first time the n-gram is met: pairs of
 * (language index, weight + BASE_WEIGHT) in one pool, and per n-gram its first pair's place in
 * the pool times 64 plus its pair count (eld knows 60 languages). Every n-gram of eld's table
 * met takes about 8 MB here (81,206 n-grams, 141,339 pairs: the map and the pool); a typed array
 * per n-gram took 21 MB, which a daemon reading many languages would come to hold.
 */
const placeOf = new Map<string, number>();
let pool = new Int32Array(4096);
let pooled = 0;
const PAIRS_BITS = 6;

function place(t: EldTable, gram: string): number {
  const known = placeOf.get(gram);
  if (known !== undefined) return known;
  const o = t.ngrams[gram];
  let p = 0;
  if (o !== undefined) {
    const langs = Object.keys(o);
    if (langs.length >= 1 << PAIRS_BITS)
      throw new Error(`eld's table gives the n-gram '${gram}' ${langs.length} languages: more than this loader holds`);
    if (pooled + 2 * langs.length > pool.length) {
      const grown = new Int32Array(Math.max(2 * pool.length, pooled + 2 * langs.length));
      grown.set(pool.subarray(0, pooled));
      pool = grown;
    }
    p = pooled * (1 << PAIRS_BITS) + langs.length;
    for (const lang of langs) {
      pool[pooled++] = Number(lang);
      pool[pooled++] = o[lang]! + BASE_WEIGHT;
    }
  }
  placeOf.set(gram, p);
  return p;
}

/** The words of `s` (spaces only separate them), each spelt one dictionary char per UTF-8 byte, read as far as eld reads. */
function byteWords(s: string, dict: readonly string[]): string[] {
  const words: string[] = [];
  let word = '';
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c === 32) {
      if (word !== '') words.push(word);
      word = '';
      // a space past WORD_BYTES ends the reading: the word before it is whole
      if (bytes > WORD_BYTES) break;
      bytes++;
    } else if (c < 0x80) {
      word += s[i];
      bytes++;
    } else if (c < 0x800) {
      word += dict[0xc0 | (c >> 6)]! + dict[0x80 | (c & 0x3f)]!;
      bytes += 2;
    } else if (c < 0xd800 || c >= 0xe000) {
      word += dict[0xe0 | (c >> 12)]! + dict[0x80 | ((c >> 6) & 0x3f)]! + dict[0x80 | (c & 0x3f)]!;
      bytes += 3;
    } else {
      // a surrogate pair (a lone one takes the next char as its pair, as eld does)
      i++;
      c = 0x10000 + (((c & 0x3ff) << 10) | (s.charCodeAt(i) & 0x3ff));
      word += dict[0xf0 | (c >> 18)]! + dict[0x80 | ((c >> 12) & 0x3f)]! + dict[0x80 | ((c >> 6) & 0x3f)]! + dict[0x80 | (c & 0x3f)]!;
      bytes += 4;
    }
    // past MAX_BYTES eld stops inside a word
    if (bytes > MAX_BYTES) break;
  }
  if (word !== '') words.push(word);
  return words;
}

/** The distinct n-grams eld reads in a word list. */
function gramsOf(words: readonly string[]): Set<string> {
  const grams = new Set<string>();
  for (const word of words) {
    const len = Math.min(word.length, WORD_CHARS);
    let j = 0;
    for (; j + 4 < len; j += 3) grams.add((j === 0 ? ' ' : '') + word.substring(j, j + 4));
    grams.add(`${j === 0 ? ' ' : ''}${word.substring(len !== 3 ? len - 4 : 0)} `);
  }
  return grams;
}

/** Scores summed per language index, reused between calls (the analyzer is synchronous). */
let sums = new Float64Array(0);

/** The language eld finds for a text ('' for none) and its score for it, 0-1. */
export function identifyLanguage(text: string): { language: string; score: number } {
  const t = loaded();
  if (sums.length !== t.codes.length) sums = new Float64Array(t.codes.length);
  const clean = text.substring(0, TEXT_CHARS).replace(t.separators, ' ').trim().toLowerCase();
  const grams = gramsOf(byteWords(clean, t.dictionary));
  sums.fill(0);
  for (const g of grams) {
    const p = place(t, g);
    // the pool is read after place(), which may have grown it
    const w = pool;
    const end = (p >>> PAIRS_BITS) + 2 * (p & ((1 << PAIRS_BITS) - 1));
    for (let i = p >>> PAIRS_BITS; i < end; i += 2) sums[w[i]!]! += w[i + 1]!;
  }
  // the first language of the highest sum, as eld picks it
  let best = -1;
  for (let i = 0; i < sums.length; i++) if (sums[i]! > 0 && (best < 0 || sums[i]! > sums[best]!)) best = i;
  if (best < 0) return { language: '', score: 0 };
  const mean = sums[best]! / grams.size;
  return { language: t.codes[best] ?? '', score: mean / (mean + SCALE) };
}
