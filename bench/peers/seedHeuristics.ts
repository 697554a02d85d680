/**
 * Peer rule: the seed heuristics — the hand-run shell check this project replaced (gzip the
 * output, count the longest run of one word). Two figures, each with a warn and a fail level:
 *
 * - gzip ratio = gzip bytes (zlib, default level 6) / UTF-8 bytes of the text: < 0.10 fail,
 *   < 0.15 warn. A loop compresses to almost nothing; prose sits around 0.3–0.45.
 * - longest run of one word back to back: ≥ 12 fail, ≥ 6 warn. Words are the letter/digit runs
 *   of the text (what `tr -cs '[:alnum:]' '\n' | uniq -c` sees, but Unicode-aware and
 *   case-insensitive); the punctuation and spaces between them are ignored.
 *
 * An empty text has no ratio (division by zero in the script): ok here. The worse verdict of the
 * two figures wins; the reason names the figure that decided.
 */
import { gzipSync } from 'node:zlib';
import type { PeerResult } from './vllmRepetition.js';

export const SEED_THRESHOLDS = { gzipFail: 0.1, gzipWarn: 0.15, runFail: 12, runWarn: 6 };

/** gzip bytes / UTF-8 bytes (1 for an empty text). */
export function gzipRatio(text: string): number {
  const raw = Buffer.from(text, 'utf8');
  return raw.length === 0 ? 1 : gzipSync(raw).length / raw.length;
}

/** The longest run of one word repeated back to back, and that word. */
export function longestWordRun(text: string): { run: number; word: string } {
  let best = 0;
  let bestWord = '';
  let prev = '';
  let run = 0;
  for (const m of text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)) {
    const w = m[0].toLowerCase();
    run = w === prev ? run + 1 : 1;
    prev = w;
    if (run > best) {
      best = run;
      bestWord = w;
    }
  }
  return { run: best, word: bestWord };
}

export function seedHeuristics(text: string): PeerResult {
  const T = SEED_THRESHOLDS;
  const ratio = gzipRatio(text);
  const { run, word } = longestWordRun(text);
  const gz = `gzip ratio ${ratio.toFixed(3)}`;
  const wr = `"${word.slice(0, 30)}" ${run} times in a row`;
  if (ratio < T.gzipFail) return { verdict: 'fail', reason: `${gz} < ${T.gzipFail}` };
  if (run >= T.runFail) return { verdict: 'fail', reason: `${wr} >= ${T.runFail}` };
  if (ratio < T.gzipWarn) return { verdict: 'warn', reason: `${gz} < ${T.gzipWarn}` };
  if (run >= T.runWarn) return { verdict: 'warn', reason: `${wr} >= ${T.runWarn}` };
  return { verdict: 'ok', reason: '' };
}
