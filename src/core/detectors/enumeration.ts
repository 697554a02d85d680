/**
 * Runaway enumerations: a list that never ends. The model fills one short template with
 * a new word each time ("what we have been expecting to unfold / to develop / to evolve
 * ..."), counts up ("Meeting 1 ... Meeting 97" with the same three bullets), makes each
 * item the previous one plus a clause (ever-longer package names), and goes on to the token
 * limit. Every item differs, so exact-repeat detectors see little; but the items share
 * one opening, are near-duplicates of each other, come far more often than any answer
 * needs, and the list is still going when the text ends.
 *
 * Items are lines of words (a list marker aside): a line with code or markup chars
 * (`{ } < = ;`, `f(`, `a.b`) or over 600 chars (a paragraph) is no item and ends every
 * list; a line of one word, or mostly digits or symbols (CSV rows, times, table rules) is
 * no item either, but lists go on past it. Each item is read into word tokens (lowercased,
 * each run of digits masked to 0; a leading item number is dropped and kept as the item's
 * number). Its template is its first two tokens ("what we", "meeting 0", "npm install"). Per template a
 * run is kept: the items with that template, each within 6 items of the previous one with
 * no non-item line between (so blocks of a few lines per item, like a heading and three
 * bullets, keep their run going). For each run: its items, the mean similarity of
 * consecutive items beyond the shared opening, how often an item is the previous one
 * grown (all its words and more), how often it repeats it verbatim, how often its number
 * is the previous one plus one, and the highest number.
 *
 * Healthy lists of 5-30 parallel items (steps, tips, a top-ten) share a shape but not
 * their first two words; code and data lines that do (`export declare function`, CSV rows,
 * `t.equal(...)`) are not items. Bounded: templates in a 4-way set-associative table of
 * 1024 slots, each remembering its last item's tokens (at most 24); per char only a
 * native newline search, per line one pass over it.
 */
import { CH_SOLO, CH_SPACE, CH_WORD, classOf } from '../charClass.js';
import { finding, type Finding } from '../finding.js';
import type { TextDetector, JudgeContext, TextView } from './detector.js';

export interface EnumerationThresholds {
  /**
   * Items in one run (lines of words opening with the same two words, near-duplicates of
   * each other) still going at the end, that fail. Healthy lists vary their openings: no
   * healthy text of corpus-real, the synthetic sets or the 1,477 realworld files has a run
   * of even 15 such items anywhere (the longest: 9, 11 and 14); real runaways run to 37-440.
   */
  listMinItems: number;
  /**
   * Mean similarity of consecutive items beyond their shared opening (shared words / words
   * of the longer item) for the run to count as one phrase varied. Runaways reach 0.65-1.0
   * ("End of X: This marks the end of the X", "what we have been expecting to X"); parallel
   * healthy items that share an opening reach 0.8 over a few items (BDD steps), so this only
   * separates a long list of different things (100 names) from one phrase varied.
   */
  listMinSimilarity: number;
  /**
   * Items, when most consecutive items have the same words and differ only in their numbers
   * ("Day 3: Rest", "service-4", "Meeting 12" with the same bullets): a count through one
   * template is also how generated data and configs look, so only a count far beyond what
   * an answer writes out fails (the real one ran to Meeting 97). With finishReason 'stop'
   * (the model ended the list itself) a runaway only warns below this many items.
   */
  listCounterMinItems: number;
  /**
   * With finishReason 'length' (the list was cut by the token limit) fewer items suffice:
   * this many, or listMinItems for a count through one template.
   */
  listLengthMinItems: number;
  /**
   * Share of consecutive items where the item is the previous one plus more words: "the same
   * entry with one more clause each time" (ever-longer package names reach 0.36). No run of
   * 12 items in the healthy sets grows even once; with this share (and listMinSimilarity)
   * the run fails from listGrowthMinItems items.
   */
  listGrowthShare: number;
  listGrowthMinItems: number;
  /**
   * A list whose consecutive items are mostly verbatim repeats is a line loop, reported by
   * the loop and cycling detectors; above this share the runaway rule stays quiet (runaways
   * put a new word in each item: the real ones have 0-33% verbatim repeats, line loops 93-100%).
   */
  listMaxRepeatShare: number;
}

export const ENUMERATION_DEFAULTS: Readonly<EnumerationThresholds> = Object.freeze({
  listMinItems: 30,
  listMinSimilarity: 0.5,
  listCounterMinItems: 80,
  listLengthMinItems: 15,
  listGrowthShare: 0.3,
  listGrowthMinItems: 12,
  listMaxRepeatShare: 0.5,
});

export interface EnumerationFigures {
  /** Items in the template run still going at the end with the most near-duplicate items (items x similarity); 0 when none. */
  listItems: number;
  /** Mean similarity of its consecutive items beyond their shared opening (shared words / words of the longer item). */
  listSimilarity: number;
  /** Share of its consecutive items that grow the previous one. */
  listGrowth: number;
  /** Share of its consecutive items that repeat the previous one exactly (same words, same number): a loop, not a list. */
  listRepeatShare: number;
  /** Share of its consecutive items with the same words as the previous one, numbers aside ("Day 3: Rest", "Day 4: Rest"). */
  listAlikeShare: number;
  /** Share of its consecutive items numbered one more than the previous one (a count going up). */
  listCountsUp: number;
  /** Highest item number in it (0 when unnumbered). */
  listMaxNumber: number;
  /** Char where its first item starts (-1 when none). */
  listStart: number;
  /** Chars after its last item. */
  listTailGap: number;
  /** Start of its first item, up to 40 chars, whitespace flattened. */
  listTemplate: string;
}

const TABLE_BITS = 10;
const TABLE = 1 << TABLE_BITS;
const WAYS = 4;
const MAX_TOKENS = 24;
const RUN_GAP = 6;
/** Lines longer than this are paragraphs, not list items. */
const MAX_LINE = 600;
/** Chars that make a line code, markup or data rather than a list item. */
const CODE_CHARS = /[{}<=;]|\S>/;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

export function createEnumerationDetector(): TextDetector<EnumerationFigures> {
  // The unfinished line: its first MAX_LINE chars, and where it starts.
  let pending = '';
  let pendingLen = 0;
  let pendingAt = 0;

  // The line being analysed.
  const tokens = new Int32Array(MAX_TOKENS);

  // Templates.
  const tKey = new Int32Array(TABLE);
  const tUsed = new Float64Array(TABLE); // 1 + index (among item lines) of its last item; 0 = empty
  const tBreak = new Float64Array(TABLE); // breaking lines seen before its last item
  const tItems = new Int32Array(TABLE);
  const tStart = new Float64Array(TABLE);
  const tEnd = new Float64Array(TABLE);
  const tSim = new Float64Array(TABLE);
  const tGrow = new Int32Array(TABLE);
  const tSame = new Int32Array(TABLE);
  const tUp = new Int32Array(TABLE);
  const tAlike = new Int32Array(TABLE);
  const tNum = new Float64Array(TABLE); // number of the last item (-1 none)
  const tMaxNum = new Float64Array(TABLE);
  const tTok = new Int32Array(TABLE * MAX_TOKENS);
  const tNTok = new Uint8Array(TABLE);
  let lines = 0; // item-like lines so far
  let breaks = 0; // code-like or overlong lines so far

  /** Reads one line (without its newline) that starts at char `at` and ends at `end`. */
  function line(text: string, fullLen: number, at: number, end: number): void {
    if (fullLen > MAX_LINE || CODE_CHARS.test(text)) {
      // a paragraph, or code / markup / data: not a list item, and it ends any list
      breaks++;
      return;
    }
    let n = 0;
    let number = -1;
    let h = FNV_OFFSET;
    let inTok = false;
    let digitsOnly = true;
    let num = 0;
    let letters = 0;
    let visible = 0;
    let symbols = 0;
    let first = -1; // first char of the item, after a list marker
    let words = 0; // space-separated chunks of the item
    let prev = 0; // the previous char: 0 space or none, 1 letter, 2 digit, 3 other
    let dotAfterLetter = false; // the previous char is a '.' right after a letter
    const len = text.length;
    for (let j = 0; j <= len; j++) {
      const c = j < len ? text.charCodeAt(j) : 32;
      const k = c < 0xd800 || c > 0xdfff ? classOf(c) : 4;
      if (k === CH_WORD) {
        if (first < 0) first = j;
        if (prev === 0) words++;
        visible++;
        if (!inTok) {
          inTok = true;
          h = FNV_OFFSET;
          digitsOnly = true;
          num = 0;
        }
        if (c >= 48 && c <= 57) {
          if (num < 1e7) num = num * 10 + (c - 48);
          if (prev !== 2) h = Math.imul(h ^ 48, FNV_PRIME); // a run of digits is one 0
          prev = 2;
        } else {
          letters++;
          if (dotAfterLetter) {
            breaks++; // member access, a domain name: a.b
            return;
          }
          digitsOnly = false;
          h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), FNV_PRIME);
          prev = 1;
        }
        dotAfterLetter = false;
        continue;
      }
      if (inTok) {
        inTok = false;
        if (digitsOnly && n < 3 && number < 0) {
          number = num; // the item's number; a leading one is a list marker, not a word
          if (n > 0) n = addToken(n, h);
        } else n = addToken(n, h);
      }
      dotAfterLetter = c === 46 && prev === 1;
      if (k === CH_SOLO) {
        // a letter of a script written without spaces is a token of its own
        if (first < 0) first = j;
        words += 2; // a script without spaces: every letter is a word
        visible++;
        letters++;
        n = addToken(n, Math.imul(FNV_OFFSET ^ c, FNV_PRIME));
        prev = 1;
        continue;
      }
      if (k === CH_SPACE) {
        prev = 0;
        continue;
      }
      // punctuation and symbols; a leading list marker (- * + # > •) is not part of the item
      if (first < 0 && (c === 45 || c === 42 || c === 43 || c === 35 || c === 62 || c === 0x2022)) continue;
      if (first < 0) first = j;
      if (prev === 0) words++;
      visible++;
      if (c !== 42 && c !== 95 && c !== 35) symbols++; // markdown emphasis and headings are not symbols
      if (c === 40 && prev === 1) {
        breaks++; // a call: f(
        return;
      }
      prev = 3;
    }
    // Items are phrases: several words, mostly letters, few symbols. Other lines (CSV rows,
    // numbers, symbols) are skipped; code and markup ended the list above.
    if (n === 0 || words < 2 || letters * 2 < visible || symbols * 4 > visible) return;
    lines++;
    const key = n >= 2 ? Math.imul(tokens[0]! ^ 0x5bd1e995, FNV_PRIME) ^ tokens[1]! : tokens[0]!;
    const base = (Math.imul(key, 0x9e3779b1) >>> (32 - TABLE_BITS)) & ~(WAYS - 1);
    let slot = -1;
    let oldest = base;
    for (let w = base; w < base + WAYS; w++) {
      if (tUsed[w]! > 0 && tKey[w] === key) {
        slot = w;
        break;
      }
      if (tUsed[w]! < tUsed[oldest]!) oldest = w;
    }
    if (slot >= 0 && lines - tUsed[slot]! <= RUN_GAP && tBreak[slot] === breaks) {
      // the run goes on: compare with its last item, beyond the opening they share
      const o = slot * MAX_TOKENS;
      const m = tNTok[slot]!;
      let common = 0;
      for (let i = 2; i < n; i++) {
        const x = tokens[i]!;
        for (let j = 2; j < m; j++) {
          if (tTok[o + j] === x) {
            common++;
            break;
          }
        }
      }
      const rest = Math.max(n, m) - 2;
      tSim[slot] = tSim[slot]! + (rest > 0 ? common / rest : 1);
      const all = common === Math.max(0, m - 2);
      if (all && n > m) tGrow[slot] = tGrow[slot]! + 1;
      if (all && n === m) {
        tAlike[slot] = tAlike[slot]! + 1;
        if (number === tNum[slot]) tSame[slot] = tSame[slot]! + 1;
      }
      if (number >= 0 && number === tNum[slot]! + 1) tUp[slot] = tUp[slot]! + 1;
      tItems[slot] = tItems[slot]! + 1;
    } else {
      if (slot < 0) slot = oldest;
      tKey[slot] = key;
      tItems[slot] = 1;
      tStart[slot] = at + Math.max(0, first);
      tSim[slot] = 0;
      tGrow[slot] = 0;
      tSame[slot] = 0;
      tUp[slot] = 0;
      tAlike[slot] = 0;
      tMaxNum[slot] = 0;
    }
    tUsed[slot] = lines;
    tBreak[slot] = breaks;
    tEnd[slot] = end;
    if (number > tMaxNum[slot]!) tMaxNum[slot] = number;
    tNum[slot] = number;
    tTok.set(tokens.subarray(0, n), slot * MAX_TOKENS);
    tNTok[slot] = n;
  }

  /** Adds a token to the line's set (once); returns the new count. */
  function addToken(n: number, x: number): number {
    if (n >= MAX_TOKENS) return n;
    for (let i = 0; i < n; i++) if (tokens[i] === x) return n;
    tokens[n] = x;
    return n + 1;
  }

  return {
    name: 'enumeration',
    push(delta: string, offset: number): void {
      let from = 0;
      for (;;) {
        const nl = delta.indexOf('\n', from);
        const to = nl < 0 ? delta.length : nl;
        if (pendingLen <= MAX_LINE) pending += delta.slice(from, Math.min(to, from + MAX_LINE + 1 - pendingLen));
        pendingLen += to - from;
        if (nl < 0) break;
        line(pending, pendingLen, pendingAt, offset + nl);
        pending = '';
        pendingLen = 0;
        pendingAt = offset + nl + 1;
        from = nl + 1;
      }
    },

    figures(view: TextView): EnumerationFigures {
      // Among the runs still going (the last item among the last RUN_GAP items, no code or
      // paragraph after it; an unfinished last line only counts in the tail gap).
      let best = -1;
      for (let s = 0; s < TABLE; s++) {
        if (tUsed[s] === 0 || lines - tUsed[s]! > RUN_GAP || tBreak[s] !== breaks) continue;
        // the run with the most near-duplicate items: items x mean similarity (= 1 + summed similarities)
        const mass = 1 + tSim[s]!;
        const bestMass = best < 0 ? -1 : 1 + tSim[best]!;
        if (mass > bestMass || (mass === bestMass && (tUp[s]! > tUp[best]! || (tUp[s] === tUp[best] && tUsed[s]! > tUsed[best]!))))
          best = s;
      }
      if (best < 0)
        return {
          listItems: 0,
          listSimilarity: 0,
          listGrowth: 0,
          listRepeatShare: 0,
          listAlikeShare: 0,
          listCountsUp: 0,
          listMaxNumber: 0,
          listStart: -1,
          listTailGap: view.length,
          listTemplate: '',
        };
      const items = tItems[best]!;
      const start = tStart[best]!;
      return {
        listItems: items,
        listSimilarity: items > 1 ? tSim[best]! / (items - 1) : 0,
        listGrowth: items > 1 ? tGrow[best]! / (items - 1) : 0,
        listRepeatShare: items > 1 ? tSame[best]! / (items - 1) : 0,
        listAlikeShare: items > 1 ? tAlike[best]! / (items - 1) : 0,
        listCountsUp: items > 1 ? tUp[best]! / (items - 1) : 0,
        listMaxNumber: tMaxNum[best]!,
        listStart: start,
        listTailGap: view.length - tEnd[best]!,
        listTemplate:
          start >= 0
            ? view
                .slice(start, Math.min(view.length, start + 60))
                .split('\n')[0]!
                .replace(/\s+/g, ' ')
                .trim()
                .slice(0, 40)
            : '',
      };
    },

    judge(f: EnumerationFigures, ctx: JudgeContext): Finding[] {
      if (f.listItems < 2) return [];
      const t = ctx.thresholds;
      // Still going at the end: nothing after the last item but an unfinished line.
      if (f.listTailGap > 400) return [];
      // Items that repeat each other word for word are a loop (the loop and cycling detectors' own).
      if (f.listRepeatShare > t.listMaxRepeatShare) return [];
      const cut = ctx.finishReason === 'length';
      const similar = f.listSimilarity >= t.listMinSimilarity;
      const counter = f.listAlikeShare >= 0.5;
      const minItems = cut ? (counter ? t.listMinItems : t.listLengthMinItems) : counter ? t.listCounterMinItems : t.listMinItems;
      const long = similar && f.listItems >= minItems;
      const growing = similar && f.listGrowth >= t.listGrowthShare && f.listItems >= t.listGrowthMinItems;
      if (!long && !growing) return [];
      // The model ended the list itself (finish_reason stop): it did end, so only a list far
      // beyond what any answer writes out still fails; a shorter one only warns.
      const stopped = ctx.finishReason === 'stop' && f.listItems < t.listCounterMinItems;
      const detail =
        `list of ${f.listItems} items opening like "${f.listTemplate}"` +
        (f.listCountsUp >= 0.5 ? ` numbered up to ${f.listMaxNumber}` : '') +
        `, consecutive items ${Math.round(f.listSimilarity * 100)}% alike` +
        (growing ? `, ${Math.round(f.listGrowth * 100)}% of them the previous item grown` : '') +
        (stopped ? ', up to the end of an output the model ended itself (finish_reason stop)' : ', still going at the end') +
        (cut ? ' (cut by the token limit)' : '');
      return [finding('list_runaway', stopped ? 'warn' : 'fail', f.listStart, detail)];
    },
  };
}
