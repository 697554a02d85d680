/**
 * The language an answer is written in, for a probe that says which one it expects
 * (probes[].expect.language): a model that answers an English prompt in German, or a Korean one
 * in Chinese, writes fluent text that no reading of the text alone can fail, since an answer in
 * any one language is healthy. The prose units language_switch reads (the first and last ones,
 * an even sample between and the section openers: a bounded number whatever the length; code,
 * markup and URLs left out) go to the same identifier; the answer's language is where most of
 * its confident letters are. An answer with too few confident letters (short units: a list of
 * names with a few words each) is read as one piece, its picked units joined.
 *
 * Measured on the 226 texts of the three real corpora whose provenance gives the instruction's
 * first words (docs/detection.md, "The language a probe expects"): with the instruction's
 * language as the expected one, the share of confident letters in it is 0.67 or more on every
 * healthy answer but one (a Korean prompt for a YAML schema answered in English: 0), and 0.43
 * or less on six collapses that turn to another language.
 */
import { letterCount } from './detectors/languageId/charClasses.js';
import { identifyLanguage } from './detectors/languageId/eldLoader.js';
import { pickedUnits } from './detectors/languageId/pickedUnits.js';
import { languageName } from './detectors/languageId/languageName.js';
import { lineBlocks } from './detectors/languageId/lineBlocks.js';

export { IDENTIFIED_LANGUAGES } from './detectors/languageId/identifiedLanguages.js';

export const ANSWER_LANGUAGE_THRESHOLDS = {
  unitLetters: {
    value: 40,
    why: "letters a prose unit needs before its language counts (language_switch's languageUnitLetters): a name, a heading or a list item is too short for an n-gram identifier",
  },
  unitConfidence: {
    value: 0.7,
    why: "eld's score from which a unit counts as confident (language_switch's languageConfidence)",
  },
  minLetters: {
    value: 80,
    why: 'confident letters (or, read as one piece, prose letters) an answer needs before its language is judged: two short sentences. Below it a one-line answer, a number or a code answer is not judged',
  },
  expectedShare: {
    value: 0.5,
    why: 'share of the confident letters in the expected language under which the answer is in another one. Healthy answers with a known prompt language reach 0.67 at least (an English quiz with Greek answer options), but for one answered in another language; collapses that turn to another language read 0.00-0.43',
  },
} as const;

/** What the answer is written in. */
export interface AnswerLanguage {
  /** Letters of confident units per language (ISO 639-1), most first. */
  letters: Array<[string, number]>;
  /** Letters of all confident units. */
  confidentLetters: number;
  /** The prose read as one piece when the confident units are too few (under minLetters): its language, eld's score and its letters; else null. */
  whole: { language: string; score: number; letters: number } | null;
}

/** Chars of joined prose the one-piece reading sends to the identifier at most. */
const WHOLE_CHARS = 2_000;

export function answerLanguage(text: string, t = thresholdValues()): AnswerLanguage {
  const units = pickedUnits(text, lineBlocks(text), t.unitLetters).map(([u]) => u);
  const byLanguage = new Map<string, number>();
  let confidentLetters = 0;
  let prose = '';
  for (const u of units) {
    if (prose.length < WHOLE_CHARS) prose += `${u.text}\n`;
    const letters = letterCount(u.text);
    if (letters < t.unitLetters) continue;
    const { language, score } = identifyLanguage(u.text);
    if (language === '' || score < t.unitConfidence) continue;
    byLanguage.set(language, (byLanguage.get(language) ?? 0) + letters);
    confidentLetters += letters;
  }
  const letters = [...byLanguage].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  let whole: AnswerLanguage['whole'] = null;
  if (confidentLetters < t.minLetters) {
    const piece = prose.slice(0, WHOLE_CHARS);
    const proseLetters = letterCount(piece);
    if (proseLetters > 0) {
      const { language, score } = identifyLanguage(piece);
      whole = { language, score, letters: proseLetters };
    }
  }
  return { letters, confidentLetters, whole };
}

/** The language the answer is in, when it is judged: null below minLetters or without a confident reading. */
export function answerLanguageOf(a: AnswerLanguage, t = thresholdValues()): { language: string; share: (lang: string) => number } | null {
  if (a.confidentLetters >= t.minLetters) {
    const total = a.confidentLetters;
    return { language: a.letters[0]![0], share: (lang) => (a.letters.find(([l]) => l === lang)?.[1] ?? 0) / total };
  }
  if (a.whole && a.whole.letters >= t.minLetters && a.whole.score >= t.unitConfidence) {
    const w = a.whole;
    return { language: w.language, share: (lang) => (lang === w.language ? 1 : 0) };
  }
  return null;
}

/** When the answer is judged and less than expectedShare of it is in `expected`: what it is in instead. */
export function wrongLanguage(a: AnswerLanguage, expected: string, t = thresholdValues()): { language: string; share: number } | null {
  const read = answerLanguageOf(a, t);
  if (read === null) return null;
  const share = read.share(expected);
  return share < t.expectedShare ? { language: read.language, share } : null;
}

/**
 * The reading in words, for the run page: "German 92%, English 8% (412 letters of confident
 * prose)", or the one-piece reading when that is what judged the answer (too few confident letters).
 */
export function describeAnswerLanguage(a: AnswerLanguage): string {
  if (a.whole)
    return `${languageName(a.whole.language) || 'unknown'} read as one piece (score ${a.whole.score.toFixed(2)}, ${a.whole.letters} letters)`;
  if (a.confidentLetters > 0) {
    const shares = a.letters.slice(0, 3).map(([lang, n]) => `${languageName(lang)} ${Math.round((100 * n) / a.confidentLetters)}%`);
    const more = a.letters.length > 3 ? ', ...' : '';
    return `${shares.join(', ')}${more} (${a.confidentLetters} letters of confident prose)`;
  }
  return 'no prose to read';
}

export type AnswerLanguageThresholds = { [K in keyof typeof ANSWER_LANGUAGE_THRESHOLDS]: number };

function thresholdValues(): AnswerLanguageThresholds {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(ANSWER_LANGUAGE_THRESHOLDS)) out[k] = v.value;
  return out as AnswerLanguageThresholds;
}
