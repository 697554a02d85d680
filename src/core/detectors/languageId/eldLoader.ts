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
 * Measured on the units the three real corpora send: 27 ms with `detect` and `getScores`, 6 ms
 * here with each n-gram a string, 3.8 ms with the n-grams packed (eldGrams.ts; docs/detection.md,
 * "Language per paragraph").
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
import { addWeights, type EldNgrams, firstPlace, newCall, spell, WORDS } from './eldGrams.js';

/** What the loader needs of eld's files. */
interface EldTable {
  /** Language codes by index. */
  codes: string[];
  /** N-gram → its weights, read from eld's table on first use: pairs of (language index, weight + 53). */
  ngrams: EldNgrams;
  /** Per byte value, the code of the char eld spells it with (each below 256; an ASCII byte is spelt as itself, not read here). */
  spelt: Uint8Array;
  /** What eld replaces with a space before reading words. */
  separators: RegExp;
}

let table: EldTable | null = null;

/** eld's chars of text read (its bytes read: eldGrams.ts). */
const TEXT_CHARS = 1000;
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
    const dictionary = bytes.dictionary;
    if (!Array.isArray(dictionary) || dictionary.length !== 256) throw new Error('dictionary.js has no 256-entry dictionary');
    const spelt = new Uint8Array(256);
    dictionary.forEach((ch: unknown, b) => {
      if (typeof ch !== 'string' || ch.length !== 1 || ch.charCodeAt(0) > 255)
        throw new Error(`dictionary.js spells byte ${b} as ${JSON.stringify(ch)}: one char below 256 expected`);
      spelt[b] = ch.charCodeAt(0);
    });
    const codes: string[] = [];
    for (const [k, v] of Object.entries(languages as Record<string, unknown>)) codes[Number(k)] = String(v);
    table = {
      codes,
      ngrams: ngrams as EldTable['ngrams'],
      spelt,
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

/** Scores summed per language index, reused between calls (the analyzer is synchronous). */
let sums = new Float64Array(0);

/** The language eld finds for a text ('' for none) and its score for it, 0-1. */
export function identifyLanguage(text: string): { language: string; score: number } {
  const t = loaded();
  if (sums.length !== t.codes.length) sums = new Float64Array(t.codes.length);
  const clean = text.substring(0, TEXT_CHARS).replace(t.separators, ' ').trim().toLowerCase();
  const words = spell(clean, t.spelt);
  newCall();
  sums.fill(0);
  // eld's distinct n-grams, in the order it first reads them: the n-grams of 4 chars at a stride of 3 in each word
  // (the first after a space), then the word's last 4 chars and on to its end, after a space when it was the first
  let distinct = 0;
  for (let w = 0; w < words; w++) {
    const a = WORDS[2 * w]!;
    const end = WORDS[2 * w + 1]!;
    const len = Math.min(end - a, WORD_CHARS);
    let j = 0;
    for (; j + 4 < len; j += 3) distinct += addWeights(sums, firstPlace(t.ngrams, a + j, a + j + 4, j === 0, false));
    distinct += addWeights(sums, firstPlace(t.ngrams, a + Math.max(0, len - 4), end, j === 0, true));
  }
  // the first language of the highest sum, as eld picks it
  let best = -1;
  for (let i = 0; i < sums.length; i++) if (sums[i]! > 0 && (best < 0 || sums[i]! > sums[best]!)) best = i;
  if (best < 0) return { language: '', score: 0 };
  const mean = sums[best]! / distinct;
  return { language: t.codes[best] ?? '', score: mean / (mean + SCALE) };
}
