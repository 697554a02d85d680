/**
 * Whether a word the tokenizer just read is a function word, asked once per distinct word. The
 * function words are keyed the way the scan keys a word (the hash of its chars lower-cased one by
 * one, and its length), so a key that no function word has rules a word out without slicing the
 * text; a key that one has is checked by the chars (two words may share a hash).
 */
import { FUNCTION_WORDS } from '../functionWords.js';
import type { TextStore } from '../textStore.js';
import { WordTable } from '../wordTable.js';
import { LOWER, lowerOf, WORD_SEED } from './asciiClass.js';

/** The longest function word: a longer word is none. */
export const FW_MAX = Math.max(...[...FUNCTION_WORDS].map((w) => w.length));

/**
 * The function words by their key. A word whose chars lower-cased one by one are not its
 * lower-case form is the one exception: "İ" lower-cases to two chars and a final "Σ" to "ς". When
 * no function word holds such a form (a "ς", a combining dot, an astral char), a key that none
 * has rules a word out; otherwise only an ASCII word's key does (FW_KEYS_EXACT false).
 */
const FW_KEYS = new WordTable();
/** The function words, by the value FW_KEYS gives their key. */
const FW_LIST = [...FUNCTION_WORDS];
const FW_KEYS_EXACT = ![...FUNCTION_WORDS].some((w) => w.includes('\u03c2') || w.includes('\u0307') || /[\ud800-\udfff]/.test(w));
for (const [k, w] of FW_LIST.entries()) {
  let h = WORD_SEED;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    h = Math.imul(h ^ (c < 128 ? LOWER[c]! : lowerOf(c)), 0x01000193);
  }
  FW_KEYS.set(h, w.length, k);
}

/** True when the word [start, end) of `store`, keyed `key` and `len` chars long (all ASCII when `ascii`), is a function word. */
export function isFunctionWord(key: number, len: number, ascii: boolean, store: TextStore, start: number, end: number): boolean {
  const k = ascii || FW_KEYS_EXACT ? FW_KEYS.get(key, len) : -1;
  if (k < 0 && (ascii || FW_KEYS_EXACT)) return false;
  const text = store.slice(start, end);
  if (ascii && k >= 0) {
    // the function word of that key, most likely: compared char by char, not lower-cased and hashed again
    const w = FW_LIST[k]!;
    let i = 0;
    while (i < len && LOWER[text.charCodeAt(i)] === w.charCodeAt(i)) i++;
    if (i === len) return true;
  }
  return FUNCTION_WORDS.has(text.toLowerCase());
}
