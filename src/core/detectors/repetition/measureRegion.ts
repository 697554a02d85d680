/**
 * The measure of one region of repeats (repeats.ts finds the regions): its copies, period and
 * verbatim share, read from the lags findRegions computed, with the table of votes per distance
 * back that every call shares. Also the K-gram size, the id of a rare word and the longest
 * period, which the repetition readings share.
 */
import { isWordToken } from '../../text/tokens.js';
import { isCodePunct } from './restated.js';
import { isWordLetters } from './wordRegion.js';

/** Tokens in a K-gram. */
export const K = 3;
/** An id that stands for a rare word in a template. */
export const WILD = -1;

export interface Region {
  /** Token range of the repeats (the first copy, before them, is not inside). */
  from: number;
  to: number;
  /** Tokens whose K-gram occurred earlier, inside the region. */
  repeated: number;
  /** K-grams whose earlier occurrence is before the region: the size of what is copied. */
  distinct: number;
  copies: number;
  /** Most common distance back, in tokens, and the share of tokens equal to the token that far back. */
  period: number;
  verbatim: number;
  /** The same, two tokens either way allowed (copies with a word or two inserted or dropped stay aligned), or the token two periods back (the copy before was the one changed there). */
  near: number;
  /** Rare words (WILD in ids) inside the region. */
  rare: number;
  /** Words inside the region (content: not punctuation, not tag names). */
  words: number;
  /** Words with letters (not numbers) and code punctuation inside the region, which tell a region of words (wordRegion.ts). */
  letterWords: number;
  codeMarks: number;
}

/** Longest loop period, in tokens (about 8 KB of prose, 4 KB of code): a unit longer than that is no loop. */
export const MAX_PERIOD = 2048;
/** Votes per distance back, shared by every measureRegion() and stretchPeriod() call and left at zero after each. */
const VOTES = new Int32Array(MAX_PERIOD + 1);

/** The region of tokens [from, to) measured as findRegions measures its regions. */
export function measureStretch(ids: Int32Array, lag: Int32Array, lo: number, from: number, to: number, info: Int32Array | null): Region {
  let repeated = 0;
  for (let i = from; i < to; i++) if (lag[i - lo]! > 0) repeated++;
  return measureRegion(ids, lag, lo, from, to, repeated, info);
}

/**
 * The period measureRegion() gives the region of tokens [from, to), alone: the votes of its first
 * pass, without the counts. Stretches are many and most are too short for a loop, which their
 * period tells: only those that may be one are measured whole.
 */
export function stretchPeriod(lag: Int32Array, lo: number, from: number, to: number): number {
  const votes = VOTES;
  let cand = 0;
  let top = 0;
  for (let i = from; i < to; i++) {
    const l = lag[i - lo]!;
    if (l === 0 || l > MAX_PERIOD) continue;
    const v = ++votes[l]!;
    if (v > top || (v === top && l < cand)) {
      top = v;
      cand = l;
    }
  }
  clearVotes(lag, lo, from, to);
  return Math.max(1, cand);
}

/** The votes counted for the lags of tokens [from, to) set back to zero. */
function clearVotes(lag: Int32Array, lo: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const l = lag[i - lo]!;
    if (l > 0 && l <= MAX_PERIOD) VOTES[l] = 0;
  }
}

/**
 * The region of tokens [from, to) measured: its copies (tokens over the K-grams whose earlier
 * occurrence lies before it), its period (the most common distance back) and how many tokens
 * equal the token one period back, verbatim or nearly; its rare words, words with letters and code
 * marks. `repeated` is its tokens whose K-gram occurred earlier, counted by the caller.
 */
export function measureRegion(
  ids: Int32Array,
  lag: Int32Array,
  lo: number,
  from: number,
  to: number,
  repeated: number,
  info: Int32Array | null,
): Region {
  // the most common distance back (distances up to MAX_PERIOD counted in a shared table, cleared after)
  const votes = VOTES;
  let cand = 0;
  let top = 0;
  let distinct = 0;
  let rare = 0;
  let words = 0;
  let letterWords = 0;
  let codeMarks = 0;
  for (let i = from; i < to; i++) {
    const l = lag[i - lo]!;
    const id = ids[i]!;
    if (id === WILD) rare++;
    if (info === null) words++;
    else {
      // the token's flags read once for the three tests (a region may be most of a long text)
      const f = info[i]!;
      if (isWordToken(f)) {
        words++;
        if (isWordLetters(f)) letterWords++;
      } else if (isCodePunct(f, id)) codeMarks++;
    }
    if (l === 0 || i - l < from) distinct++;
    if (l === 0 || l > MAX_PERIOD) continue;
    const v = ++votes[l]!;
    if (v > top || (v === top && l < cand)) {
      top = v;
      cand = l;
    }
  }
  let same = 0;
  let near = 0;
  // (cand is 0 when no distance was counted)
  const period = cand > 0 ? cand : 1;
  // the votes are cleared (the table is shared): all at once for a region several times the table's size, else those
  // counted
  if (to - from >= 4 * MAX_PERIOD) votes.fill(0);
  else clearVotes(lag, lo, from, to);
  for (let i = from; i < to; i++) {
    const id = ids[i]!;
    if (id === WILD || i - period - 1 < lo) continue;
    if (id === ids[i - period]) {
      same++;
      near++;
    } else if (
      id === ids[i - period - 1] ||
      (period > 1 && id === ids[i - period + 1]) ||
      (i - period - 2 >= lo && id === ids[i - period - 2]) ||
      (period > 2 && id === ids[i - period + 2]) ||
      // the copy before was the one changed there: the token two copies back
      (i - 2 * period >= lo && id === ids[i - 2 * period])
    )
      near++;
  }
  const len = to - from;
  return {
    from,
    to,
    repeated,
    distinct,
    copies: len / Math.max(1, distinct) + 1,
    period,
    verbatim: same / len,
    near: near / len,
    rare,
    words,
    letterWords,
    codeMarks,
  };
}
