/**
 * The two readings of the normalised end of the text (whitespace dropped, digits masked, case
 * folded), on one normalised view of it (normalisedTail.ts): copies back to back to the end
 * (normalisedCopies.ts) and the replayed last part (replayed.ts). Each is then told whether it
 * covers words, from the tokens that run from it to the end (wordRegion.ts), counted once for
 * both. And the paragraphs at the end that each say the one before again (paragraphChain.ts).
 */
import type { DelimitedTables } from '../../text/delimitedTables.js';
import type { Scan } from '../detector.js';
import { type NormalisedCopies, normalisedCopies, WINDOW } from './normalisedCopies.js';
import { normalisedTail } from './normalisedTail.js';
import { NO_CHAIN, type ParagraphChain, paragraphChain } from './paragraphChain.js';
import { REPLAY_WINDOW, type Replayed, replayed } from './replayed.js';
import { hasFunctionWord, isWordRegion, wordsToEnd } from './wordRegion.js';

/** Trailing whitespace read past the window before the copies are counted. */
const TRAILING_SLACK = 1024;

/** `tables` shares the table readings of the analysis (delimitedTables.ts). */
export function atEnd(scan: Scan, tables: DelimitedTables): { copies: NormalisedCopies; replay: Replayed; chain: ParagraphChain } {
  const from = Math.max(0, scan.chars - REPLAY_WINDOW);
  const tail = normalisedTail(scan.slice(from, scan.chars), from);
  const copiesFrom = Math.max(0, scan.chars - WINDOW - TRAILING_SLACK);
  const c = normalisedCopies(tail.text.slice(copiesFrom - tail.offset), copiesFrom, tail, tables);
  const r = replayed(tail.text, tail.offset, tail, tables);
  // each reading's tokens: from the first that ends after where it starts (none when it found nothing)
  const t = scan.tokens;
  const cFrom = c.copies === 0 ? t.n : firstEndingAfter(scan, c.onset);
  const rFrom = r.at < 0 ? t.n : firstEndingAfter(scan, r.at);
  const [cWords, rWords] = wordsToEnd(t, cFrom, rFrom);
  // paragraphs at the end that each say the one before again (rare: most texts read two paragraphs and stop)
  const p = paragraphChain(tail);
  const chain = p.links === 0 ? NO_CHAIN : { ...p, words: isWordRegion(t, firstEndingAfter(scan, p.at), t.n) };
  const copies = c.copies === 0 ? c : { ...c, words: cWords, prose: hasFunctionWord(t, cFrom, t.n) };
  return { copies, replay: r.at < 0 ? r : { ...r, words: rWords }, chain };
}

/** The first token that ends after char `at`. */
function firstEndingAfter(scan: Scan, at: number): number {
  const t = scan.tokens;
  let lo = 0;
  let hi = t.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.end[mid]! <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
