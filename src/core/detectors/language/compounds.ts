/**
 * Compounds: Finnish, Swedish, Danish, Norwegian, Dutch, German, Icelandic, Estonian and
 * Hungarian write a compound noun as one word (`tyhjätilamerkkiesikäsittely`,
 * `felsökningsinformationsfiler`), often of 25 letters or more, the length from which a word of
 * lower-case letters reads as words run together. Where the worst window for the malformed share
 * is prose that eld is sure is in such a language, its long words are that language's words, not
 * words glued: they leave the share.
 */
import { identifyLanguage } from '../languageId/eldLoader.js';
import { IDENTIFY_CHARS, SURE } from './salad.js';
import { LANGUAGE_THRESHOLDS } from './thresholds.js';
import type { WindowFigures } from './windows.js';

/** Languages that write compounds as one word (ISO 639-1, as eld names them). */
const COMPOUNDING = new Set(['da', 'de', 'et', 'fi', 'hu', 'is', 'nl', 'no', 'sv']);
/** Malformed share under which the window is not asked: half the default threshold, so prose with no long word never loads eld here. */
const IDENTIFY_FROM = LANGUAGE_THRESHOLDS.malformedShare.value / 2;

/** The malformed share of the worst window with the compounds of a compounding language left out (the share as read otherwise). */
export function withoutCompounds(w: WindowFigures, text: string): number {
  if (w.malformedLong === 0 || w.malformed < IDENTIFY_FROM) return w.malformed;
  // read as the salad reading reads a window: as many chars, sure as language_switch is
  const { language, score } = identifyLanguage(text.slice(w.malformedAt, w.malformedAt + IDENTIFY_CHARS));
  return score >= SURE && COMPOUNDING.has(language) ? Math.max(0, w.malformed - w.malformedLong) : w.malformed;
}
