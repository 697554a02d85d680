/**
 * A unit glued to itself inside one token: "GGGG…", "0000…", "dendenden…", "OfOfOf…",
 * "x005F_x005F_…". The tokenizer sees one long word; its chars have a short period. Judged
 * at the end of the output (a flood runs to the token limit) by the chars the period covers.
 * And floods as items: words that are one char run 8+ times ("1111111111", "AAAAAAAA"), most
 * of the words of a stretch (a list whose items are floods, each a char longer).
 */
import { K_WORD, KIND_MASK } from '../text/tokens.js';
import type { Detector, Scan, Values } from './detector.js';
import { excerptOf, type Finding, finding, fmt } from './finding.js';
import { SlidingShare } from './slidingShare.js';

export const GLUED_KINDS = ['char_flood', 'word_loop'] as const;
export type GluedKind = (typeof GLUED_KINDS)[number];

const THRESHOLDS = {
  floodItemShare: {
    value: 0.5,
    why: 'share of 24 words in a row that are one char run 8+ times ("1111111111", "AAAAAAAA") that fails: a list of floods. Healthy model outputs and the real files reach 0.08 (two in 24: zeros in a table, a test of long integers; npm run bench -- thresholds); "#ffffff" is six chars, and underscores are a rule or a blank to fill in',
  },
  gluedRuleChars: {
    value: 160,
    why: 'chars of underscores glued at the end of the output (a rule, or a blank to fill in) that fail: healthy model outputs end in at most 55 (npm run bench -- thresholds; runs inside them reach 63), the real files in none; the same limit as ruleChars for rules of other marks, about two lines',
  },
  gluedFloodChars: {
    value: 24,
    why: 'chars of a token whose chars repeat a unit of 1-12 chars (4+ copies) that fail at the end of the output. Healthy texts end in at most 16 such chars (a run of zeros in an address, "hahaha"; npm run bench -- thresholds); the real floods run 31-8,000',
  },
} as const;

/** Tokens shorter than this are not read for a period. */
const MIN_CHARS = 8;
/** Longest unit looked for. */
const MAX_UNIT = 12;
/** The last tokens read (a flood may be cut into a few tokens by a digit or a mark). */
const TAIL_TOKENS = 3;
/** Words per stretch read for floods as items, and the fewest a text needs to be read. */
const ITEM_WORDS = 24;
const ITEM_MIN_WORDS = 8;

export interface GluedFigures {
  /** Chars at the end of the output covered by a glued unit, the unit and where the run starts (-1 when none). */
  chars: number;
  /** The unit is underscores: a rule or a blank, judged by its own limit. */
  rule: boolean;
  unit: string;
  copies: number;
  start: number;
  /** The highest share of words that are one char run 8+ times among ITEM_WORDS in a row, and where those start (-1 when none). */
  items: number;
  itemsAt: number;
}

export const glued = {
  name: 'glued' as const,
  kinds: GLUED_KINDS,
  thresholds: THRESHOLDS,
  liveTokens: TAIL_TOKENS,
  figures(scan: Scan): GluedFigures {
    const t = scan.tokens;
    const { items, itemsAt } = scan.live ? { items: 0, itemsAt: -1 } : floodItems(scan);
    const none = { chars: 0, rule: false, unit: '', copies: 0, start: -1, items, itemsAt };
    for (let i = t.n - 1; i >= Math.max(0, t.n - TAIL_TOKENS); i--) {
      if ((t.info[i]! & KIND_MASK) !== K_WORD) continue;
      const len = t.end[i]! - t.start[i]!;
      if (len < MIN_CHARS) continue;
      const text = scan.slice(t.start[i]!, t.end[i]!).toLowerCase();
      const { p, run } = tailPeriod(text, MAX_UNIT);
      if (p === 0) return none;
      const unit = text.slice(len - p);
      // underscores glued are a rule or a blank ("________"), which may run a line or two
      const rule = /^_+$/.test(unit);
      return { chars: run, rule, unit, copies: run / p, start: t.end[i]! - run, items, itemsAt };
    }
    return none;
  },
  judge(f: GluedFigures, t: Values<typeof THRESHOLDS>): Array<Finding<GluedKind>> {
    const limit = f.rule ? t.gluedRuleChars : t.gluedFloodChars;
    if (f.chars < limit) {
      if (f.items < t.floodItemShare) return [];
      const share = `${fmt(100 * f.items, 0)}% of ${ITEM_WORDS} words in a row`;
      return [finding('char_flood', 'fail', f.itemsAt, `${share} are one char run ${MIN_CHARS}+ times ("1111111111"): a list of floods`)];
    }
    const kind: GluedKind = f.unit.length === 1 ? 'char_flood' : 'word_loop';
    const detail = `"${excerptOf(f.unit, 20)}" glued to itself ${fmt(f.copies, 1)} times at the end (${f.chars} chars)`;
    return [finding(kind, 'fail', f.start, detail, f.chars >= 4 * limit)];
  },
} satisfies Detector<GluedFigures, GluedKind, typeof THRESHOLDS>;

/** The smallest unit of at most `max` chars that the end of s repeats 4+ times, and the chars of that run (the run of a word before it is not part of it). */
function tailPeriod(s: string, max: number): { p: number; run: number } {
  const n = s.length;
  for (let p = 1; p <= max && 4 * p <= n; p++) {
    let k = 0;
    while (k < n - p && s.charCodeAt(n - 1 - k) === s.charCodeAt(n - 1 - k - p)) k++;
    if (k + p >= 4 * p && k + p >= MIN_CHARS) return { p, run: k + p };
  }
  return { p: 0, run: 0 };
}

/** The highest share of words that are one char run MIN_CHARS+ times among ITEM_WORDS words in a row (all of them in a shorter text). */
function floodItems(scan: Scan): { items: number; itemsAt: number } {
  const t = scan.tokens;
  const text = scan.text();
  if (!hasFlood(t, text)) return { items: 0, itemsAt: -1 };
  const window = new SlidingShare(ITEM_WORDS);
  for (let i = 0; i < t.n; i++) if ((t.info[i]! & KIND_MASK) === K_WORD) window.push(isFlood(text, t.start[i]!, t.end[i]!), t.start[i]!);
  window.finish(ITEM_MIN_WORDS);
  return { items: window.best, itemsAt: window.bestAt };
}

/** Is the word [a, b) one char run MIN_CHARS+ times? Underscores run together are a rule or a blank to fill in ("________"), not a flood. */
function isFlood(text: string, a: number, b: number): boolean {
  if (b - a < MIN_CHARS || text.charCodeAt(a) === 0x5f) return false;
  for (let j = a + 1; j < b; j++) if (text.charCodeAt(j) !== text.charCodeAt(a)) return false;
  return true;
}

/** Does the text have one such word at all (most have none: the windows are read only when it does)? */
function hasFlood(t: Scan['tokens'], text: string): boolean {
  for (let i = 0; i < t.n; i++)
    if (t.end[i]! - t.start[i]! >= MIN_CHARS && (t.info[i]! & KIND_MASK) === K_WORD && isFlood(text, t.start[i]!, t.end[i]!)) return true;
  return false;
}
