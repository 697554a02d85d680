/**
 * Peer rule: the Gopher repetition rules (Rae et al. 2021, "Scaling Language Models: Methods,
 * Analysis & Insights from Training Gopher", Table A1), applied as datatrove's
 * GopherRepetitionFilter applies them. Written here from the paper and from the documented
 * behaviour of that filter (facts only, no code copied):
 *
 * - paragraphs: the stripped text split on runs of 2+ newlines; lines: the text split on runs
 *   of newlines. An element is a duplicate when an equal element came before it (the first
 *   copy is not counted). Rules: duplicate paragraph fraction (count / paragraphs) > 0.30,
 *   duplicate paragraph char fraction (chars of the duplicates / text length) > 0.20, then the
 *   same for lines (> 0.30, > 0.20).
 * - words: datatrove uses a word tokenizer that also yields punctuation tokens; here the same
 *   'plain' tokens as the vLLM peer (letter/digit runs and single other characters, see
 *   tokenize()). N-grams are compared by their words (datatrove compares joined strings, so
 *   in its duplicate rule "ab"+"c" equals "a"+"bc"; that rare coincidence is not reproduced).
 * - top n-gram char fraction, n = 2, 3, 4: the n-grams are the n words joined by one space;
 *   (length of the most frequent n-gram — the first seen among equals — × its number of
 *   occurrences, overlaps included) /
 *   text length > 0.20, 0.18, 0.16.
 * - duplicate n-gram char fraction, n = 5..10: walk the words; when the n-gram starting at the
 *   current word (words joined without separator) was seen before, add its length and jump n
 *   words ahead, else remember it and move one word; total / text length > 0.15, 0.14, 0.13,
 *   0.12, 0.11, 0.10.
 * The first rule that trips gives the reason; any rule → fail. Lengths are JS string lengths
 * (UTF-16 units) for both numerator and denominator. An empty text has no defined fractions
 * (the filter would divide by zero): ok here.
 */
import { type PeerResult, type Tokens, tokenize } from './vllmRepetition.js';

export const GOPHER_THRESHOLDS = {
  dupParaFrac: 0.3,
  dupParaCharFrac: 0.2,
  dupLineFrac: 0.3,
  dupLineCharFrac: 0.2,
  topNGram: [
    [2, 0.2],
    [3, 0.18],
    [4, 0.16],
  ] as const,
  dupNGram: [
    [5, 0.15],
    [6, 0.14],
    [7, 0.13],
    [8, 0.12],
    [9, 0.11],
    [10, 0.1],
  ] as const,
};

function duplicates(xs: string[]): { count: number; chars: number } {
  const seen = new Set<string>();
  let count = 0;
  let chars = 0;
  for (const x of xs) {
    if (seen.has(x)) {
      count++;
      chars += x.length;
    } else seen.add(x);
  }
  return { count, chars };
}

const f3 = (x: number): string => x.toFixed(3);

/**
 * One number per n-gram of token ids: two independent 32-bit multiplicative hashes of the ids,
 * 26 bits of each packed into one exact 52-bit number. Equal n-grams get equal keys; two
 * different ones collide with a chance of about 1e-6 per text of 100k words, which a bench can
 * ignore. Keys instead of joined strings keep the rule fast on the synthetic corpus.
 */
function ngramKeys(ids: Int32Array, n: number): Float64Array {
  const out = new Float64Array(Math.max(0, ids.length - n + 1));
  for (let i = 0; i < out.length; i++) {
    let h1 = 0x811c9dc5;
    let h2 = 0x2545f491;
    for (let j = i; j < i + n; j++) {
      const id = ids[j]!;
      h1 = Math.imul(h1 ^ id, 0x01000193);
      h2 = Math.imul(h2 + id + 0x9e3779b9, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    out[i] = (h1 >>> 6) * 67_108_864 + (h2 >>> 6);
  }
  return out;
}

/** Open-addressing counter of n-gram keys (a Map of heap numbers is several times slower). */
class KeyCounter {
  private readonly keys: Float64Array;
  private readonly counts: Int32Array;
  private readonly mask: number;
  constructor(n: number) {
    let cap = 16;
    while (cap < 2 * n) cap *= 2;
    this.keys = new Float64Array(cap);
    this.counts = new Int32Array(cap);
    this.mask = cap - 1;
  }
  private slot(key: number): number {
    const lo = key % 67_108_864;
    const hi = (key - lo) / 67_108_864;
    let i = (Math.imul(hi, 0x9e3779b1) ^ lo) & this.mask;
    while (this.counts[i] !== 0 && this.keys[i] !== key) i = (i + 1) & this.mask;
    return i;
  }
  /** Counts one more occurrence; returns the new count. */
  add(key: number): number {
    const i = this.slot(key);
    this.keys[i] = key;
    return ++this.counts[i]!;
  }
  count(key: number): number {
    return this.counts[this.slot(key)]!;
  }
}

/** `tokens`: tokenize(text) when the caller has it already (the bench shares it with the vLLM peer). */
export function gopherRepetition(text: string, tokens?: Tokens): PeerResult {
  const len = text.length;
  if (len === 0) return { verdict: 'ok', reason: '' };
  const T = GOPHER_THRESHOLDS;

  const paragraphs = text.trim().split(/\n{2,}/);
  const para = duplicates(paragraphs);
  if (para.count / paragraphs.length > T.dupParaFrac)
    return { verdict: 'fail', reason: `dup_para_frac ${f3(para.count / paragraphs.length)} > ${T.dupParaFrac}` };
  if (para.chars / len > T.dupParaCharFrac)
    return { verdict: 'fail', reason: `dup_para_char_frac ${f3(para.chars / len)} > ${T.dupParaCharFrac}` };

  const lines = text.split(/\n+/);
  const line = duplicates(lines);
  if (line.count / lines.length > T.dupLineFrac)
    return { verdict: 'fail', reason: `dup_line_frac ${f3(line.count / lines.length)} > ${T.dupLineFrac}` };
  if (line.chars / len > T.dupLineCharFrac)
    return { verdict: 'fail', reason: `dup_line_char_frac ${f3(line.chars / len)} > ${T.dupLineCharFrac}` };

  const { ids, words } = tokens ?? tokenize(text);
  // Prefix sums of word lengths: the chars of words[i..i+n) are wlen[i+n] - wlen[i].
  const wlen = new Float64Array(words.length + 1);
  for (let i = 0; i < words.length; i++) wlen[i + 1] = wlen[i]! + words[i]!.length;
  const keys = (n: number): Float64Array => ngramKeys(ids, n);

  for (const [n, frac] of T.topNGram) {
    if (words.length < n) continue;
    const k = keys(n);
    const counts = new KeyCounter(k.length);
    for (const key of k) counts.add(key);
    // The most frequent n-gram (the first seen among equals), times its length (words + n-1 spaces).
    let topCount = 0;
    let top = 0;
    for (let i = 0; i < k.length; i++) {
      const c = counts.count(k[i]!);
      if (c > topCount) {
        topCount = c;
        top = c * (wlen[i + n]! - wlen[i]! + n - 1);
      }
    }
    if (top / len > frac) return { verdict: 'fail', reason: `top_${n}_gram ${f3(top / len)} > ${frac}` };
  }

  for (const [n, frac] of T.dupNGram) {
    if (words.length < n) continue;
    const k = keys(n);
    const seen = new KeyCounter(k.length);
    let repeated = 0;
    for (let i = 0; i < k.length; ) {
      if (seen.count(k[i]!) > 0) {
        repeated += wlen[i + n]! - wlen[i]!;
        i += n;
      } else {
        seen.add(k[i]!);
        i++;
      }
    }
    if (repeated / len > frac) return { verdict: 'fail', reason: `duplicated_${n}_n_grams ${f3(repeated / len)} > ${frac}` };
  }
  return { verdict: 'ok', reason: '' };
}
