/**
 * A unit's language as far as its script and function words tell, without the identifier:
 * most units of a healthy answer share the script and the function words of its opening, and
 * when the first and the last units agree here the answer has no switch to show, so the
 * identifier (about 0.06 ms a unit, the most of what language_switch costs) is not called.
 * Only a clear agreement skips it: a mixed script, a script without word lists, too few words
 * or two languages' lists nearly tied give null, and the identifier decides.
 */
import { FUNCTION_WORDS_BY_LANGUAGE } from '../../functionWords.js';
import { isLatinPastB } from '../../charClass.js';

/** Share of a unit's letters its main script needs. */
const SCRIPT_SHARE = 0.8;
/** Share of a unit's letters Han, kana or hangul need: one such letter is a syllable or a word, and Latin names and terms stand among them. */
const CJK_SHARE = 0.5;
/** Share of kana among CJK letters from which Han and kana read as Japanese. */
const KANA_SHARE = 0.1;
/** Words a Latin or Cyrillic unit needs before its function words tell a language. */
const MIN_WORDS = 8;
/** Share of its words the top language's function words need (healthy prose has 30-55%). */
const TOP_SHARE = 0.2;
/** How many times the runner-up's hits the top language needs: lists share words (de, en, la, die, in). */
const MARGIN = 1.5;

const LATIN = 0;
const CYRILLIC = 1;
const HAN = 2;
const KANA = 3;
const HANGUL = 4;
const OTHER = 5;

function scriptOf(c: number): number {
  if (c < 0x250 || isLatinPastB(c)) return LATIN;
  if (c >= 0x400 && c <= 0x52f) return CYRILLIC;
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf)) return HAN;
  if (c >= 0x3040 && c <= 0x30ff) return KANA;
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff) || (c >= 0x3130 && c <= 0x318f)) return HANGUL;
  return OTHER;
}

const LANGS = Object.keys(FUNCTION_WORDS_BY_LANGUAGE);
/** Each function word with the languages whose lists hold it, one bit each: one lookup a word (lists share words: de, en, la, die, in). */
const WORD_LANGS = new Map<string, number>();
LANGS.forEach((lang, k) => {
  for (const w of FUNCTION_WORDS_BY_LANGUAGE[lang]!) WORD_LANGS.set(w, (WORD_LANGS.get(w) ?? 0) | (1 << k));
});

/** Chars of the longest function word of any list. */
const LONGEST_WORD = Math.max(...[...WORD_LANGS.keys()].map((w) => w.length));

/**
 * The same words in a table of their own, looked up by a hash of their chars taken while the
 * unit is read: a word is looked up without slicing it out (a Map needs the word as a string,
 * and the slice and its hashing were most of what a unit cost). Open addressing, SLOTS over
 * three times the words, so a miss ends at the first empty slot.
 */
const SLOTS = 1 << Math.ceil(Math.log2(WORD_LANGS.size * 3 + 1));
const slotWord = new Array<string>(SLOTS).fill('');
const slotHash = new Int32Array(SLOTS);
const slotLangs = new Int32Array(SLOTS);

function hashOn(h: number, c: number): number {
  return (Math.imul(h, 31) + c) | 0;
}

for (const [w, langs] of WORD_LANGS) {
  let h = 0;
  for (let i = 0; i < w.length; i++) h = hashOn(h, w.charCodeAt(i));
  let slot = h & (SLOTS - 1);
  while (slotWord[slot] !== '') slot = (slot + 1) & (SLOTS - 1);
  slotWord[slot] = w;
  slotHash[slot] = h;
  slotLangs[slot] = langs;
}

/** The languages (one bit each) whose lists hold the word [from, from + len) of s, its hash h; 0 for none. */
function wordLangs(s: string, from: number, len: number, h: number): number {
  for (let slot = h & (SLOTS - 1); slotWord[slot] !== ''; slot = (slot + 1) & (SLOTS - 1)) {
    const w = slotWord[slot]!;
    if (slotHash[slot] === h && w.length === len && s.startsWith(w, from)) return slotLangs[slot]!;
  }
  return 0;
}

/** True for a letter of the scripts read here (ASCII letters, Latin, Cyrillic, CJK); other letters count as OTHER. */
function isLetter(c: number): boolean {
  if (c < 128) return ((c | 32) - 97) >>> 0 < 26;
  return (
    c >= 0xc0 && c !== 0xd7 && c !== 0xf7 && !(c >= 0x2000 && c <= 0x2bff) && !(c >= 0x3000 && c <= 0x303f) && !(c >= 0xff00 && c <= 0xff65)
  );
}

/** Whether the word [from, from + w.length) of s, ASCII letters, is w once lower-cased. */
function sameLower(w: string, s: string, from: number): boolean {
  for (let j = 0; j < w.length; j++) if (w.charCodeAt(j) !== (s.charCodeAt(from + j) | 32)) return false;
  return true;
}

/** wordLangs for a word of ASCII letters read as it stands, h the hash of its lower-cased chars. */
function asciiWordLangs(s: string, from: number, len: number, h: number): number {
  for (let slot = h & (SLOTS - 1); slotWord[slot] !== ''; slot = (slot + 1) & (SLOTS - 1)) {
    const w = slotWord[slot]!;
    if (slotHash[slot] === h && w.length === len && sameLower(w, s, from)) return slotLangs[slot]!;
  }
  return 0;
}

/** Adds each word's function-word languages to hits: a word's languages are counted once each. */
function addHits(hits: number[], mask: number): void {
  for (let k = 0; mask !== 0; k++, mask >>>= 1) if (mask & 1) hits[k]!++;
}

/**
 * The words of an ASCII text (all its letters Latin), their function words counted in hits, in
 * one pass without a lower-cased copy; -1 at the first char above ASCII (hits then hold part of
 * the count: the caller starts again).
 */
function asciiWords(text: string, hits: number[]): number {
  let n = 0;
  let from = -1;
  let h = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 128) return -1;
    if (((c | 32) - 97) >>> 0 < 26) {
      if (from < 0) {
        from = i;
        h = 0;
      }
      h = hashOn(h, c | 32);
      continue;
    }
    if (from < 0) continue;
    n++;
    // a word longer than every listed one is in no list: not looked up (most of a unit's letters are in such words)
    if (i - from <= LONGEST_WORD) addHits(hits, asciiWordLangs(text, from, i - from, h));
    from = -1;
  }
  return n;
}

/** The key of the top language by function words among n words, or null when it is not clear enough. */
function topLanguage(script: string, n: number, hits: readonly number[]): string | null {
  if (n < MIN_WORDS) return null;
  let top = '';
  let best = 0;
  let second = 0;
  for (let k = 0; k < LANGS.length; k++) {
    const h = hits[k]!;
    if (h > best) {
      second = best;
      best = h;
      top = LANGS[k]!;
    } else if (h > second) second = h;
  }
  if (best < TOP_SHARE * n || best < MARGIN * second) return null;
  return `${script}:${top}`;
}

/**
 * 'Latn:en', 'Cyrl:ru', 'Hani', 'Jpan', 'Hang', or null when unclear. Units that get the same
 * key are in the same language; different keys say nothing (the identifier decides).
 */
export function roughLanguage(text: string): string | null {
  const hits = new Array<number>(LANGS.length).fill(0);
  // most units are ASCII: Latin letters only (no letters, no words: null), read in one pass
  const words = asciiWords(text, hits);
  if (words === 0) return null;
  if (words > 0) return topLanguage('Latn', words, hits);
  hits.fill(0);
  // counted in locals, an ASCII letter without scriptOf
  let letters = 0;
  let latin = 0;
  let cyrillic = 0;
  let han = 0;
  let kana = 0;
  let hangul = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (((c | 32) - 97) >>> 0 < 26) {
        letters++;
        latin++;
      }
      continue;
    }
    if (!isLetter(c)) continue;
    letters++;
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const k = scriptOf(c);
    if (k === LATIN) latin++;
    else if (k === CYRILLIC) cyrillic++;
    else if (k === HAN) han++;
    else if (k === KANA) kana++;
    else if (k === HANGUL) hangul++;
  }
  if (letters === 0) return null;
  const cjk = han + kana;
  if (hangul >= CJK_SHARE * letters && cjk === 0) return 'Hang';
  if (cjk >= CJK_SHARE * letters && hangul === 0) return kana >= KANA_SHARE * cjk ? 'Jpan' : 'Hani';
  const script = latin >= SCRIPT_SHARE * letters ? 'Latn' : cyrillic >= SCRIPT_SHARE * letters ? 'Cyrl' : null;
  if (script === null) return null;
  // words are runs of letters (read in one pass, no split): the unit is read for every answer's two ends and middle
  const lower = text.toLowerCase();
  let n = 0;
  let from = -1;
  let h = 0;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 32;
    if (isLetter(c)) {
      if (from < 0) {
        from = i;
        h = 0;
      }
      h = hashOn(h, c);
      continue;
    }
    if (from < 0) continue;
    n++;
    if (i - from <= LONGEST_WORD) addHits(hits, wordLangs(lower, from, i - from, h));
    from = -1;
  }
  return topLanguage(script, n, hits);
}
