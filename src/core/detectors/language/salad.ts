/**
 * The word-salad front: the windows of spaced prose that no other window beats on both counts
 * (fewer function words and fewer breaks). Kept so the judge can read the window with the
 * fewest function words under whatever saladBreakShare a probe sets.
 */
import { FUNCTION_WORDS_BY_LANGUAGE } from '../../functionWords.js';
import { identifyLanguage } from '../languageId/eldLoader.js';
import { languageId } from '../languageId/languageId.js';
import { LANGUAGE_THRESHOLDS } from './thresholds.js';

/** A window of Latin or Cyrillic prose read for word salad: its function-word share, its break share, where it starts. */
export interface SaladPoint {
  func: number;
  breaks: number;
  at: number;
  /** The language eld gives the window's text when it is sure (ISO 639-1), '' when not sure or not asked (identifySalad). */
  lang: string;
}

/** The window with the fewest function words among those of at most `maxBreaks` break share, or null. */
export function saladUnder(front: readonly SaladPoint[], maxBreaks: number): SaladPoint | null {
  let best: SaladPoint | null = null;
  // by break share rising, function-word share falling: the last one under the bound has the fewest function words
  for (const p of front) {
    if (p.breaks > maxBreaks) break;
    best = p;
  }
  return best;
}

/**
 * Adds a window (its function-word share, break share and start) to the front unless an earlier
 * one has no more function words and no more breaks; drops those it beats. Most windows are
 * beaten: the point is made only for one that joins.
 */
export function addSaladPoint(front: SaladPoint[], func: number, breaks: number, at: number): void {
  for (const q of front) if (q.breaks <= breaks && q.func <= func) return;
  let k = 0;
  for (const q of front) if (!(q.breaks >= breaks && q.func >= func)) front[k++] = q;
  front.length = k;
  let i = 0;
  while (i < front.length && front[i]!.breaks < breaks) i++;
  front.splice(i, 0, { func, breaks, at, lang: '' });
}

/**
 * The languages that the function-word lists cover: a window of one of them with no function word
 * is salad, while one of another language (Swedish, Finnish, Turkish, Indonesian, Vietnamese) has
 * none of the listed words whatever it says, and is not judged so (its language is asked of eld).
 */
const LISTED = new Set(Object.keys(FUNCTION_WORDS_BY_LANGUAGE));
/** Function-word share under which a window's language is asked: twice the default saladFunctionShare, so prose of a listed language (0.3-0.55 function words) is never asked. */
const IDENTIFY_BELOW = 2 * LANGUAGE_THRESHOLDS.saladFunctionShare.value;
/** Break share under which a window's language is asked: twice the default saladBreakShare (lists and tables have more; a window with more is no salad by default). */
const IDENTIFY_BREAKS = 2 * LANGUAGE_THRESHOLDS.saladBreakShare.value;
/** Chars of the window's text the identifier reads: 24 chunks of prose and some to spare. */
const IDENTIFY_CHARS = 300;
/** eld's score from which the window's language counts: the one language_switch counts a unit from (its default languageConfidence). */
const SURE = languageId.thresholds.languageConfidence.value;

/** Each window of the front under IDENTIFY_BELOW function words and IDENTIFY_BREAKS breaks gets the language eld is sure of. */
export function identifySalad(front: SaladPoint[], text: string): void {
  for (const p of front) {
    if (p.func >= IDENTIFY_BELOW || p.breaks >= IDENTIFY_BREAKS) continue;
    const { language, score } = identifyLanguage(text.slice(p.at, p.at + IDENTIFY_CHARS));
    p.lang = score >= SURE ? language : '';
  }
}

/** Whether a window is in a language the function-word lists do not cover (eld sure of it): no salad to judge by them. */
export function unlisted(p: SaladPoint): boolean {
  return p.lang !== '' && !LISTED.has(p.lang);
}
