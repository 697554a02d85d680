/**
 * Does the text read as some language, and the same one throughout? Read over the prose
 * chunks of the text (wordShapes.ts; code, markup and addresses are left out), one reading
 * per module, each returning its own figures (figures.ts):
 * - windows.ts: gibberish (malformed chunks, punctuation where no language puts it), word
 *   salad (words with no function words and no breaks between them, clause after clause) and
 *   function-word soup, read over windows of prose (their sums: windowSums.ts);
 * - randomCodes.ts: stretches of new random codes; markLines.ts: lines of lone marks;
 * - runOnList.ts and endWords.ts: words strung on a line, or after the last sentence;
 * - scripts.ts and chineseVariant.ts: prose in another script, or in the other Chinese variant;
 * - fenced.ts: what fenced code blocks hold, read apart (code stays code, noise fails).
 * The judge is an ordered rule table (rules.ts); each finding names the rule that fired.
 */
import type { Detector } from '../detector.js';
import { type LanguageFigures, languageFigures } from './figures.js';
import { judgeLanguage, LANGUAGE_KINDS, type LanguageKind } from './rules.js';
import { LANGUAGE_THRESHOLDS, type LanguageThresholds } from './thresholds.js';

export type { LanguageFigures } from './figures.js';
export type { FencedFigures } from './fenced.js';
export { LANGUAGE_KINDS, type LanguageKind } from './rules.js';
export { type SaladPoint, saladUnder } from './salad.js';
export { SPACED } from './scripts.js';

export const language = {
  name: 'language' as const,
  kinds: LANGUAGE_KINDS,
  thresholds: LANGUAGE_THRESHOLDS,
  figures: languageFigures,
  judge: judgeLanguage,
} satisfies Detector<LanguageFigures, LanguageKind, LanguageThresholds>;
