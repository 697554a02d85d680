/**
 * Cycling: the text keeps coming back to lines or sentences it has already written, with
 * other ones between, until it ends. A weak model at the end of its answer goes round the
 * same few paragraphs (farewells in five languages, a block of variable definitions, the
 * prompt it was given) until the token limit. The cycle need not be back to back with a
 * clean period (the order of its parts may shift), but almost every line of the tail is
 * one the text already had, and the same few come round again and again.
 *
 * In the spirit of the Gopher repetition rules (Rae et al. 2021: duplicate-line and
 * duplicate-paragraph fractions, by count and by chars), with two changes that matter for
 * streamed answers and healthy repetitive text:
 * - the repetition is judged where it runs to the END of the text. Healthy texts repeat
 *   (a chorus, table rows, test boilerplate, the same doc comment on every overload) but
 *   they repeat a block and move on, or put something new between the copies; a collapse
 *   never moves on and adds nothing new;
 * - it must be a cycle: the region's material comes round at least three times, not one
 *   block shown again (documentation that shows an example twice, code that re-prints a
 *   function after fixing it).
 *
 * Units are segments: a line, or a sentence inside a line (cut after . ! ? followed by a
 * space or tab, and after 。！？). A segment is keyed by a 32-bit hash of its text with
 * inner whitespace collapsed and its indentation kept (a verbatim copy keeps its
 * indentation; code lines that merely look alike at other nesting depths do not count).
 * Segments without a letter or digit (`}`, `---`, `|---|`) are skipped: every document
 * repeats them. Seen segments live in a 4-way set-associative table of 16 K slots (LRU
 * within a set; bounded, O(1), no allocation per char); the last 1024 segments in a ring.
 *
 * The cycling region is the longest suffix of the segments (at most 8 K chars back) that
 * starts at a repeated segment and of whose chars at least 95% repeat earlier segments;
 * its figures are measured on those 8 K. Where a longer cycle began is kept by a stretch
 * read forward (the same 95% rule, a few numbers of state); the cycle's first copy is one
 * round before the region when the region's first segment was there.
 */
import { CH_SPACE, CH_WORD, CH_SOLO, classOf } from '../charClass.js';
import { finding, type Finding } from '../finding.js';
import type { TextDetector, JudgeContext, TextView } from './detector.js';

export interface CyclingThresholds {
  /**
   * Chars the cycling region must cover to fail (it is measured up to 8 K chars back). The
   * real collapses cover 0.9-8 K (a two-paragraph cycle of 0.9 K in a partial issue paste
   * is the smallest). No healthy text of the corpora or of the 1,477 realworld files ends in
   * a region that also meets the two cycle conditions below, at any size; 500 keeps a
   * song's chorus sung four times over at the very end (about 4 x 120 chars) quiet.
   */
  cyclingFailChars: number;
  /**
   * Occurrences inside the region of its most repeated segment. A cycle that comes round
   * twice can be a song's last choruses or an example shown twice; collapses come round
   * 3 to 360 times.
   */
  cyclingMinReturns: number;
  /**
   * Share of the region's chars in segments that occur at least three times in it: the
   * region is a cycle over the same few segments, not a block shown again. Real collapses
   * reach 0.81-1.0; repetitive healthy code (test files, the same doc comment on every
   * overload) at most 0.59 in the realworld files.
   */
  cyclingMinCyclicShare: number;
  /**
   * With finishReason 'length' (cut by the token limit inside the cycle) a smaller region
   * suffices: the model was still cycling when it was stopped...
   */
  cyclingLengthFailChars: number;
  /**
   * ...and a cycle that came round twice after its first copy (three copies in all), with
   * cycleRecurShare (segments occurring twice or more in the region) >= cyclingMinCyclicShare.
   * Measured on every healthy text as if cut: 2 of 1,477 realworld files (test files that
   * end in copies of the same case), none of the corpora.
   */
  cyclingLengthMinReturns: number;
}

export const CYCLING_DEFAULTS: Readonly<CyclingThresholds> = Object.freeze({
  cyclingFailChars: 500,
  cyclingMinReturns: 3,
  cyclingMinCyclicShare: 0.75,
  cyclingLengthFailChars: 300,
  cyclingLengthMinReturns: 2,
});

export interface CyclingFigures {
  /** Segments (lines / sentences with a letter or digit) seen so far. */
  cycleSegments: number;
  /** Whole-text share of segment chars that repeat an earlier segment (Gopher's duplicate-line share by chars). */
  cycleDupShare: number;
  /** Share of segment chars in the last 3000 chars that repeat an earlier segment. */
  cycleTailShare: number;
  /** Chars of the cycling region (the longest suffix starting at a repeat with >= 95% repeated chars, looked for 8 K chars back; when it fills that, back to where it began); 0 when none. */
  cycleChars: number;
  /** Share of the region's segment chars that are repeats. */
  cycleShare: number;
  /** Char where the region (its first repeated segment) starts; -1 when none. */
  cycleRegionStart: number;
  /** Char where the cycle's first copy starts: one round before the region when its first segment was there, else the region start; -1 when none. */
  cycleStart: number;
  /** Occurrences inside the region of its most repeated segment. */
  cycleReturns: number;
  /** Char where that segment first occurred; -1 when none. */
  cycleTopAt: number;
  /** Occurrences of that segment in the whole text so far (as far as the bounded table remembers). */
  cycleTopTotal: number;
  /** Distinct segments in the region. */
  cycleUnits: number;
  /** Segments in the region. */
  cycleRegionSegments: number;
  /** Share of region chars in segments that occur >= 3 times in the region. */
  cycleCyclicShare: number;
  /** Share of region chars in segments that occur >= 2 times in the region. */
  cycleRecurShare: number;
  /** Share of region chars in segments that follow the same segment as at their previous occurrence (order kept). */
  cycleFollowShare: number;
  /** Longest segment of the region, in chars. */
  cycleLongestUnit: number;
  /** Chars after the region's last segment (an unfinished segment, lines of punctuation). */
  cycleTailGap: number;
}

const RING = 1024;
const TABLE_BITS = 14;
const TABLE = 1 << TABLE_BITS;
const WAYS = 4;
const REGION_MAX_CHARS = 8000;
const REGION_MIN_SHARE = 0.95;
const TAIL_WINDOW = 3000;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 16777619;

// Char types for the scan: visible (punctuation, word, sentence end), then separators.
const T_PUNCT = 0;
const T_WORD = 1;
const T_TERM = 2; // . ! ? : ends a sentence when a space or tab follows
const T_SPACE = 3;
const T_NEWLINE = 4;
const T_STOP = 5; // 。！？ : ends a sentence by itself
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const k = classOf(c);
  ASCII[c] = c === 10 ? T_NEWLINE : c === 46 || c === 33 || c === 63 ? T_TERM : k === CH_SPACE ? T_SPACE : k === CH_WORD ? T_WORD : T_PUNCT;
}

function wideClass(c: number): number {
  if (c === 0x3002 || c === 0xff01 || c === 0xff1f) return T_STOP;
  if (c >= 0xd800 && c <= 0xdfff) return T_PUNCT; // half of an astral char (emoji, rare scripts)
  const k = classOf(c);
  return k === CH_SPACE ? T_SPACE : k === CH_WORD || k === CH_SOLO ? T_WORD : T_PUNCT;
}

export function createCyclingDetector(): TextDetector<CyclingFigures> {
  // The segment being read (copied into locals while a delta is scanned: closure
  // variables holding 32-bit hashes would be boxed on every char).
  let sH = FNV_OFFSET;
  let sLen = 0; // normalized length (inner whitespace runs count 1)
  let sIndent = 0;
  let sLeading = true;
  let sSpace = false;
  let sWord = false;
  let sAt = -1; // first non-space char
  let sTerm = false; // last char was . ! ? (a boundary if a space or tab follows)

  // Seen segments: 4-way set-associative by hash, LRU within a set.
  const tHash = new Int32Array(TABLE);
  const tCount = new Int32Array(TABLE);
  const tPrev = new Int32Array(TABLE);
  const tFirst = new Float64Array(TABLE);
  const tLast = new Float64Array(TABLE); // 1 + index of the segment that last used the slot
  const tAt = new Float64Array(TABLE); // where the segment occurred last

  // Ring of the last finished segments.
  const rStart = new Float64Array(RING);
  const rEnd = new Float64Array(RING);
  const rWeight = new Int32Array(RING);
  const rHash = new Int32Array(RING);
  const rFirst = new Float64Array(RING);
  const rTotal = new Int32Array(RING);
  const rPrevAt = new Float64Array(RING); // where the segment occurred before (-1: first time)
  const rFlags = new Uint8Array(RING); // 1 repeat, 2 follows the same segment as last time
  let count = 0;
  let prevHash = 0;
  // The current stretch read forward: it opens at a repeated segment and lasts while at least
  // REGION_MIN_SHARE of its chars are repeats (no window: it tells where a long cycle began).
  let stStart = -1;
  let stPrevAt = -1;
  let stTot = 0;
  let stRep = 0;
  let totalWeight = 0;
  let repeatWeight = 0;

  /** Records a finished segment; `word`: it has a letter or digit. */
  function close(hash: number, nlen: number, indent: number, first: number, word: boolean, end: number): void {
    if (!word) return;
    const key = Math.imul(hash ^ indent, FNV_PRIME) ^ nlen;
    const weight = nlen;
    // 4-way set: the segment's own slot if it is there, else the least recently used one.
    const base = (Math.imul(key, 0x9e3779b1) >>> (32 - TABLE_BITS)) & ~(WAYS - 1);
    let slot = -1;
    let oldest = base;
    for (let w = base; w < base + WAYS; w++) {
      if (tCount[w]! > 0 && tHash[w] === key) {
        slot = w;
        break;
      }
      if (tLast[w]! < tLast[oldest]!) oldest = w;
    }
    let flags = 0;
    let prevAt = -1;
    if (slot >= 0) {
      flags = tPrev[slot] === prevHash ? 3 : 1;
      prevAt = tAt[slot]!;
      tCount[slot]!++;
    } else {
      slot = oldest;
      tHash[slot] = key;
      tCount[slot] = 1;
      tFirst[slot] = first;
    }
    tLast[slot] = count + 1;
    tAt[slot] = first;
    tPrev[slot] = prevHash;
    const i = count % RING;
    rStart[i] = first;
    rEnd[i] = end;
    rWeight[i] = weight;
    rHash[i] = key;
    rFirst[i] = tFirst[slot]!;
    rTotal[i] = tCount[slot]!;
    rPrevAt[i] = prevAt;
    rFlags[i] = flags;
    prevHash = key;
    count++;
    totalWeight += weight;
    if (flags !== 0) repeatWeight += weight;
    if (stStart >= 0) {
      stTot += weight;
      if (flags !== 0) stRep += weight;
      if (stRep < REGION_MIN_SHARE * stTot) stStart = -1;
    }
    if (stStart < 0 && flags !== 0) {
      stStart = first;
      stPrevAt = prevAt;
      stTot = weight;
      stRep = weight;
    }
  }

  return {
    name: 'cycling',
    push(delta: string, offset: number): void {
      let h = sH;
      let nlen = sLen;
      let indent = sIndent;
      let leading = sLeading;
      let space = sSpace;
      let word = sWord;
      let at = sAt;
      let term = sTerm;
      const n = delta.length;
      for (let j = 0; j < n; j++) {
        const c = delta.charCodeAt(j);
        const t = c < 128 ? ASCII[c]! : wideClass(c);
        if (t <= T_TERM) {
          // a visible char
          if (leading) {
            leading = false;
            at = offset + j;
          } else if (space) {
            h = Math.imul(h ^ 32, FNV_PRIME);
            nlen++;
            space = false;
          }
          h = Math.imul(h ^ c, FNV_PRIME);
          nlen++;
          if (t === T_WORD) word = true;
          term = t === T_TERM;
          continue;
        }
        if (t === T_SPACE) {
          if (term && (c === 32 || c === 9)) {
            close(h, nlen, indent, at, word, offset + j);
            h = FNV_OFFSET;
            nlen = 0;
            indent = 0;
            leading = true;
            space = false;
            word = false;
            at = -1;
          }
          term = false;
          if (leading) indent++;
          else space = true;
          continue;
        }
        // a newline, or a full stop of a script without spaces (which belongs to the segment)
        if (t === T_STOP) {
          if (leading) at = offset + j;
          h = Math.imul(h ^ c, FNV_PRIME);
          nlen++;
        }
        term = false;
        close(h, nlen, indent, at, word, offset + j + 1);
        h = FNV_OFFSET;
        nlen = 0;
        indent = 0;
        leading = true;
        space = false;
        word = false;
        at = -1;
      }
      sH = h;
      sLen = nlen;
      sIndent = indent;
      sLeading = leading;
      sSpace = space;
      sWord = word;
      sAt = at;
      sTerm = term;
    },

    figures(view: TextView): CyclingFigures {
      const n = Math.min(count, RING);
      const lastEnd = n > 0 ? rEnd[(count - 1) % RING]! : 0;
      let tailTot = 0;
      let tailRep = 0;
      let tot = 0;
      let rep = 0;
      let best = -1;
      let bestTot = 0;
      let bestRep = 0;
      for (let k = 0; k < n; k++) {
        const i = (count - 1 - k) % RING;
        const w = rWeight[i]!;
        const isRep = rFlags[i] !== 0;
        const back = lastEnd - rStart[i]!;
        if (back <= TAIL_WINDOW) {
          tailTot += w;
          if (isRep) tailRep += w;
        }
        if (back > REGION_MAX_CHARS) break;
        tot += w;
        if (isRep) rep += w;
        if (isRep && rep >= REGION_MIN_SHARE * tot) {
          best = k;
          bestTot = tot;
          bestRep = rep;
        }
      }
      const f: CyclingFigures = {
        cycleSegments: count,
        cycleDupShare: totalWeight > 0 ? repeatWeight / totalWeight : 0,
        cycleTailShare: tailTot > 0 ? tailRep / tailTot : 0,
        cycleChars: 0,
        cycleShare: 0,
        cycleRegionStart: -1,
        cycleStart: -1,
        cycleReturns: 0,
        cycleTopAt: -1,
        cycleTopTotal: 0,
        cycleUnits: 0,
        cycleRegionSegments: 0,
        cycleCyclicShare: 0,
        cycleRecurShare: 0,
        cycleFollowShare: 0,
        cycleLongestUnit: 0,
        cycleTailGap: view.length - lastEnd,
      };
      if (best < 0) return f;
      const inRegion = new Map<number, number>();
      let topKey = 0;
      let topN = 0;
      let longest = 0;
      let follow = 0;
      for (let k = best; k >= 0; k--) {
        const i = (count - 1 - k) % RING;
        const key = rHash[i]!;
        const c = (inRegion.get(key) ?? 0) + 1;
        inRegion.set(key, c);
        if (rWeight[i]! > longest) longest = rWeight[i]!;
        if (rFlags[i] === 3) follow += rWeight[i]!;
        if (c > topN) {
          topN = c;
          topKey = key;
          f.cycleTopAt = rFirst[i]!;
          f.cycleTopTotal = rTotal[i]!;
        } else if (key === topKey) f.cycleTopTotal = rTotal[i]!;
      }
      let cyclic = 0;
      let recur = 0;
      for (let k = best; k >= 0; k--) {
        const i = (count - 1 - k) % RING;
        const c = inRegion.get(rHash[i]!)!;
        if (c >= 3) cyclic += rWeight[i]!;
        if (c >= 2) recur += rWeight[i]!;
      }
      const first = (count - 1 - best) % RING;
      let regionStart = rStart[first]!;
      let before = rPrevAt[first]!;
      if (lastEnd - regionStart > REGION_MAX_CHARS - 2 * longest && stStart >= 0 && stStart < regionStart) {
        // the region fills the window: the cycle began where the stretch read forward began
        regionStart = stStart;
        before = stPrevAt;
      }
      // The cycle's first copy: the region opens with a segment that came one round before
      // (a new cycle), or with one the text had long before (a loop over old text starts here).
      const round = ((lastEnd - rStart[first]!) * inRegion.size) / (best + 1);
      const start = before >= 0 && regionStart - before <= 1.5 * round + 2 * longest ? before : regionStart;
      f.cycleChars = lastEnd - regionStart;
      f.cycleShare = bestRep / bestTot;
      f.cycleRegionStart = regionStart;
      f.cycleStart = start;
      f.cycleReturns = topN;
      f.cycleUnits = inRegion.size;
      f.cycleRegionSegments = best + 1;
      f.cycleCyclicShare = cyclic / bestTot;
      f.cycleRecurShare = recur / bestTot;
      f.cycleFollowShare = follow / bestTot;
      f.cycleLongestUnit = longest;
      return f;
    },

    judge(f: CyclingFigures, ctx: JudgeContext): Finding[] {
      if (f.cycleChars <= 0) return [];
      const t = ctx.thresholds;
      // Runs to the end: what follows the region is at most one unfinished segment.
      if (f.cycleTailGap > Math.max(200, f.cycleLongestUnit + 2)) return [];
      const full =
        f.cycleChars >= t.cyclingFailChars && f.cycleReturns >= t.cyclingMinReturns && f.cycleCyclicShare >= t.cyclingMinCyclicShare;
      const cut =
        ctx.finishReason === 'length' &&
        f.cycleChars >= t.cyclingLengthFailChars &&
        f.cycleReturns >= t.cyclingLengthMinReturns &&
        f.cycleRecurShare >= t.cyclingMinCyclicShare;
      if (!full && !cut) return [];
      // finish_reason stop changes nothing: the rounds are verbatim copies, and three rounds of
      // the same material at the end are a collapse even when the model ended the text itself.
      const detail =
        `segment at char ${f.cycleTopAt} comes round ${f.cycleReturns} times in the last ${f.cycleChars} chars, ` +
        `which cycle over ${f.cycleUnits} distinct segments and are ${Math.round(f.cycleShare * 100)}% repeats of earlier text, to the end` +
        (ctx.finishReason === 'length' ? ' (cut by the token limit)' : '');
      return [finding('cycling', 'fail', f.cycleStart, detail)];
    },
  };
}
