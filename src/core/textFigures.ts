/**
 * Figures reported with every analysis but judged by no detector (the detectors judge
 * repetition by its units): the longest run of one word, the most repeated line and the
 * share of chars in repeated lines (Gopher-style), distinct words over words, and the word
 * n-gram fractions of the last 2048 words. One pass over the tokens.
 */
import { excerptOf } from './detectors/finding.js';
import type { Scan } from './detectors/detector.js';
import { ngramFractions, type NgramFractions, type NgramsWanted } from './ngramFractions.js';
import { LineCounts } from './lineCounts.js';
import * as tokens from './text/tokens.js';

// module-level copies of the token flags the per-token loop reads: an imported binding is live, read through its
// module's cell each time, where a const of this module is not
const { F_LINE, K_PUNCT, KIND_MASK } = tokens;

export interface TextFigures {
  words: number;
  distinctWords: number;
  longestWordRun: number;
  longestWordRunWord: string;
  topLineRepeats: number;
  topLine: string;
  /** Chars of non-blank lines that occur more than once, over chars of non-blank lines. */
  duplicateLineFraction: number;
  ngrams: NgramFractions;
  punctChars: number;
}

/** Words kept for the n-gram fractions (a power of two: the ring is indexed by a mask). */
const NGRAM_WORDS = 2048;
/** The last NGRAM_WORDS words in text order, shared by every call (one runs at a time; each reads only what it wrote). */
const NG_IDS = new Int32Array(NGRAM_WORDS);
const NG_LENS = new Int32Array(NGRAM_WORDS);
/**
 * The call that last saw each word id (its stamp), shared by every call: a word is new to the
 * text when its slot holds another call's stamp, so no array sized by the vocabulary is
 * allocated and cleared per call.
 */
let seenStamp = new Int32Array(1024);
let stamp = 0;
/** The distinct lines of the call running (one runs at a time). */
const LINES = new LineCounts();

export function textFigures(scan: Scan, ngrams: NgramsWanted = 'all'): TextFigures {
  const t = scan.tokens;
  if (seenStamp.length < scan.idCount) seenStamp = new Int32Array(Math.max(scan.idCount, 2 * seenStamp.length));
  stamp++;
  if (stamp === 0x7fffffff) {
    seenStamp.fill(0);
    stamp = 1;
  }
  const seen = seenStamp;
  const call = stamp;
  let words = 0;
  let distinct = 0;
  let punct = 0;
  let run = 0;
  let best = 0;
  let bestAt = -1;
  let prev = -1;
  // each distinct line (by the hash of its token ids): its count, chars and first offset, entries in the order first
  // seen (lineCounts.ts)
  const lines = LINES;
  lines.reset();
  let lineStart = 0;
  let lineHash = 0x811c9dc5 | 0;
  // the buffer's arrays in locals: the loop reads them at every token
  const { info: tInfo, id: tId, start: tStart, end: tEnd, n } = t;
  for (let i = 0; i < n; i++) {
    const info = tInfo[i]!;
    const id = tId[i]!;
    if (info & F_LINE && i > 0) {
      lines.line(lineHash, lineStart, tEnd[i - 1]!);
      lineStart = tStart[i]!;
      lineHash = 0x811c9dc5 | 0;
    }
    lineHash = Math.imul(lineHash ^ id, 0x01000193);
    if ((info & KIND_MASK) === K_PUNCT) {
      punct += tEnd[i]! - tStart[i]!;
      continue;
    }
    words++;
    if (seen[id] !== call) {
      seen[id] = call;
      distinct++;
    }
    if (id === prev && !(info & F_LINE)) run++;
    else run = 1;
    if (run > best) {
      best = run;
      bestAt = i;
    }
    prev = id;
  }
  if (n > 0) lines.line(lineHash, lineStart, tEnd[n - 1]!);
  const topLine = lines.top();
  // the last words, read back from the end of the text once their number is known (no ring written at every word)
  const kept = Math.min(words, NGRAM_WORDS);
  for (let i = t.n - 1, j = kept - 1; j >= 0; i--) {
    if ((t.info[i]! & KIND_MASK) === K_PUNCT) continue;
    NG_IDS[j] = t.id[i]!;
    NG_LENS[j] = t.end[i]! - t.start[i]!;
    j--;
  }
  return {
    words,
    distinctWords: distinct,
    longestWordRun: best,
    longestWordRunWord: bestAt >= 0 ? excerptOf(scan.slice(t.start[bestAt]!, t.end[bestAt]!).toLowerCase(), 40) : '',
    topLineRepeats: topLine.n,
    topLine: topLine.at >= 0 ? excerptOf(scan.slice(topLine.at, topLine.at + Math.min(topLine.chars, 200)).trim(), 120) : '',
    duplicateLineFraction: lines.lineChars === 0 ? 0 : lines.dupChars / lines.lineChars,
    ngrams: ngramFractions(NG_IDS, NG_LENS, kept, ngrams),
    punctChars: punct,
  };
}
