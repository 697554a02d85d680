/**
 * Does the end of a text of prose go back over what it said before? The share of the last
 * RESTATE_WORDS words whose 8-word sequence (the word and the seven before it) the text had
 * said twice already. Prose almost never says the same eight words three times (a refrain,
 * a name with its title); it may say a passage twice (a quotation, a revised version of an
 * answer). A model that goes back over itself, paragraphs reordered and a sentence changed
 * here and there, says nothing else; its copies need not run back to back, so the loop
 * reading of repetition.ts misses it. Read only where the end is prose
 * (function words, no code punctuation): code, API docs between declarations and data
 * repeat eight-word sequences by design.
 */
import { F_FUNC, isWordToken, K_PUNCT, KIND_MASK, type TokenBuffer } from '../../text/tokens.js';

/** Words read at the end, and words per sequence. */
export const RESTATE_WORDS = 512;
const N = 8;
/** Times a sequence was said before from which saying it again is going back over the text. */
const TIMES_BEFORE = 2;
/** The end is prose: this share of its words at least are function words... */
const PROSE_FUNCTION_SHARE = 0.25;
/** ...and at most this share of its tokens are code punctuation. */
const PROSE_CODE_SHARE = 0.01;

export interface Restated {
  /** Share of the last RESTATE_WORDS words whose 8-word sequence the text had said twice already (0 when not read). */
  share: number;
  /** Char offset where those words start (-1 when not read). */
  at: number;
}

/**
 * Code punctuation: { } [ ] ; = < > | \ `. Not parentheses: prose holds them as much as code does
 * (a year or an aside in brackets, list labels "a)"), and a paragraph with four asides read as
 * code under the share of one in a hundred tokens.
 */
const CODE = new Uint8Array(128);
for (const c of '{}[];=<>|\\`') CODE[c.charCodeAt(0)] = 1;

/** Is token i code punctuation ({ } [ ] ; = < > | \ `)? Prose has almost none. */
export function isCodeMark(t: TokenBuffer, i: number): boolean {
  return isCodePunct(t.info[i]!, t.id[i]!);
}

/** The same for a token of these flags and this id. */
export function isCodePunct(info: number, id: number): boolean {
  return (info & KIND_MASK) === K_PUNCT && id < 128 && CODE[id] === 1;
}

/**
 * The words' ids, and the table of the last words' sequences (hash, count said so far or -1 for a free slot, and each
 * last word's slot): scratch shared by every call (the analyzer runs one at a time), cleared per call. Eight slots a
 * sequence keep the probes short.
 */
let WORDS = new Int32Array(0);
const TABLE_MASK = 8 * RESTATE_WORDS - 1;
const KEYS = new Int32Array(TABLE_MASK + 1);
const COUNT = new Int32Array(TABLE_MASK + 1);
const SLOTS = new Int32Array(RESTATE_WORDS);

/** The hash of the 8-word sequence that ends at word j. */
function sequenceHash(words: Int32Array, j: number): number {
  let h = 0x811c9dc5 | 0;
  for (let k = j - N + 1; k <= j; k++) h = Math.imul(h ^ words[k]!, 0x01000193);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
}

export function restated(t: TokenBuffer): Restated {
  const none = { share: 0, at: -1 };
  // the end first, read back from the last token: is it prose, and are there words enough before it?
  let seenWords = 0;
  let func = 0;
  let first = -1;
  for (let i = t.n - 1; i >= 0 && seenWords < RESTATE_WORDS + N; i--) {
    if (!isWordToken(t.info[i]!)) continue;
    seenWords++;
    if (seenWords <= RESTATE_WORDS) {
      if (t.info[i]! & F_FUNC) func++;
      first = i;
    }
  }
  if (seenWords < RESTATE_WORDS + N || func < PROSE_FUNCTION_SHARE * RESTATE_WORDS) return none;
  let code = 0;
  for (let i = first; i < t.n; i++) if (isCodeMark(t, i)) code++;
  if (code > PROSE_CODE_SHARE * (t.n - first)) return none;
  // then the words of the whole text, as token ids
  if (WORDS.length < t.n) WORDS = new Int32Array(t.n);
  const words = WORDS;
  let w = 0;
  for (let i = 0; i < t.n; i++) if (isWordToken(t.info[i]!)) words[w++] = t.id[i]!;
  // only the sequences of the last RESTATE_WORDS words are counted: their hashes go in a small table (it stays in cache),
  // then every sequence before them is looked up there, then theirs are counted in order (a sequence is its hash, as ever)
  const tailFrom = w - RESTATE_WORDS;
  const keys = KEYS;
  const count = COUNT;
  const slots = SLOTS;
  count.fill(-1);
  for (let j = tailFrom; j < w; j++) {
    const h = sequenceHash(words, j);
    let slot = (h ^ (h >>> 12)) & TABLE_MASK;
    while (count[slot] !== -1 && keys[slot] !== h) slot = (slot + 1) & TABLE_MASK;
    keys[slot] = h;
    count[slot] = 0;
    slots[j - tailFrom] = slot;
  }
  for (let j = N - 1; j < tailFrom; j++) {
    const h = sequenceHash(words, j);
    let slot = (h ^ (h >>> 12)) & TABLE_MASK;
    while (count[slot] !== -1 && keys[slot] !== h) slot = (slot + 1) & TABLE_MASK;
    if (count[slot] !== -1) count[slot]!++;
  }
  let repeats = 0;
  for (let q = 0; q < RESTATE_WORDS; q++) {
    // said twice before: a text may restate a passage once (a revised version, a quote); a third time is going back over it
    if (count[slots[q]!]! >= TIMES_BEFORE) repeats++;
    count[slots[q]!]!++;
  }
  return { share: repeats / RESTATE_WORDS, at: t.start[first]! };
}
