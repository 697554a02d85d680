/**
 * The language detector's judge: an ordered table of rules in the shape of the verdict rules
 * (src/core/verdictRules.ts), each a pure function of the figures and the thresholds, tested
 * alone. Each finding carries the name of the rule that made it: the threshold it crossed
 * (fenced ones prefixed), a bounded string shown in reports and on the run page, never a label.
 */
import type { JudgeContext, Values } from '../detector.js';
import { scriptOfLanguage } from '../languageId/identifiedLanguages.js';
import { type Finding, finding, fmt } from '../finding.js';
import type { LanguageFigures } from './figures.js';
import { MARK_LINES, NUMBER_MARK_LINES, SHORT_MARK_LINES } from './markLines.js';
import { CODE_CHUNKS, SHORT_CODE_LINES } from './randomCodes.js';
import { saladUnder, unlisted } from './salad.js';
import { SPACED } from './scripts.js';
import type { LanguageThresholds } from './thresholds.js';

export const LANGUAGE_KINDS = ['gibberish', 'word_salad', 'script_switch'] as const;
export type LanguageKind = (typeof LANGUAGE_KINDS)[number];

type LanguageFinding = Finding<LanguageKind>;

export interface LanguageRule {
  /** The rule's name, carried by its finding. */
  name: string;
  /** Why the rule exists (the thresholds' whys give the figures). */
  why: string;
  /** Its finding, or null; `found` holds what the rules before it found. */
  judge(f: LanguageFigures, t: Values<LanguageThresholds>, found: readonly LanguageFinding[]): LanguageFinding | null;
}

/** Letters a run of prose in another script needs to fail: a switch into Latin, or between two spaced alphabets, runs longer. */
const switchRule = (name: 'switchLettersIntoLatin' | 'switchLettersAlphabet' | 'switchLetters', why: string): LanguageRule => ({
  name,
  why,
  judge: (f, t) =>
    switchThreshold(f) === name && f.switchLetters >= t[name]
      ? finding('script_switch', 'fail', f.switchAt, `${f.switchLetters} letters of ${f.switchScript} prose in a ${f.script} text`)
      : null,
});

/** Which of the three switch thresholds applies to the text's longest run in another script. */
export function switchThreshold(
  f: Pick<LanguageFigures, 'script' | 'switchScript'>,
): 'switchLettersIntoLatin' | 'switchLettersAlphabet' | 'switchLetters' {
  if (f.switchScript === 'latin' && !SPACED.has(f.script)) return 'switchLettersIntoLatin';
  return SPACED.has(f.script) && SPACED.has(f.switchScript) ? 'switchLettersAlphabet' : 'switchLetters';
}

export const LANGUAGE_RULES: readonly LanguageRule[] = [
  {
    name: 'malformedShare',
    why: 'a stretch of prose where many words are no word of any language',
    judge: (f, t) =>
      f.malformed >= t.malformedShare
        ? finding(
            'gibberish',
            'fail',
            f.malformedAt,
            `${fmt(100 * f.malformed, 0)}% of the words of a stretch are no word of any language (case flipping inside, scripts glued, no vowel)`,
          )
        : null,
  },
  {
    name: 'noiseShare',
    why: 'a stretch of prose with punctuation scattered where no language puts it',
    judge: (f, t) =>
      f.noise >= t.noiseShare
        ? finding(
            'gibberish',
            'fail',
            f.noiseAt,
            `${fmt(100 * f.noise, 0)}% of the words of a stretch carry punctuation where no language puts it (marks doubled or alone between words, such as ",,", "..", "!!", "I! can!")`,
          )
        : null,
  },
  {
    name: 'singleLetterShare',
    why: 'a stretch of prose spelt letter by letter',
    judge: (f, t) =>
      f.singleLetters >= t.singleLetterShare
        ? finding(
            'gibberish',
            'fail',
            f.singleLettersAt,
            `${fmt(100 * f.singleLetters, 0)}% of a window of prose is single letters: text spelt letter by letter`,
          )
        : null,
  },
  {
    name: 'shortPieceShare',
    why: 'a stretch of prose cut into pieces of words a few letters long',
    judge: (f, t) =>
      f.shortPieces >= t.shortPieceShare
        ? finding(
            'gibberish',
            'fail',
            f.shortPiecesAt,
            `${fmt(100 * f.shortPieces, 0)}% of a window of prose is pieces of two or three letters that are no function word ("ng", "ome"): words cut into pieces`,
          )
        : null,
  },
  {
    name: 'codeChunkShare',
    why: 'a stretch of words that are new random codes of capitals and digits',
    judge: (f, t) =>
      f.codeChunks >= t.codeChunkShare
        ? finding(
            'gibberish',
            'fail',
            f.codeChunksAt,
            `${fmt(100 * f.codeChunks, 0)}% of ${CODE_CHUNKS} words in a row are new codes of capital letters and digits mixed at random ("7QX2", "0PL9W")`,
          )
        : null,
  },
  {
    name: 'shortCodeLineShare',
    why: 'a short output judged whole: most of its lines are one new random code each',
    judge: (f, t) =>
      f.shortCodeLines >= SHORT_CODE_LINES && f.shortCodeShare >= t.shortCodeLineShare
        ? finding(
            'gibberish',
            'fail',
            f.shortCodeAt,
            `${fmt(100 * f.shortCodeShare, 0)}% of the lines of the output (${f.shortCodeLines}) are each one new code of capital letters and digits mixed at random ("7QX2", "0PL9W")`,
          )
        : null,
  },
  {
    name: 'markLineShare',
    why: 'a text fallen apart into lines of lone marks',
    judge: (f, t) =>
      f.markLines >= t.markLineShare
        ? finding(
            'gibberish',
            'fail',
            f.markLinesAt,
            `${fmt(100 * f.markLines, 0)}% of ${MARK_LINES} lines in a row hold marks alone ("**", ".", ","): the text fell apart into fragments`,
          )
        : null,
  },
  {
    name: 'oddScriptWords',
    why: 'words of two alphabets in an order no language writes: pieces of two vocabularies glued',
    judge: (f, t) =>
      f.oddScriptWords >= t.oddScriptWords
        ? finding(
            'gibberish',
            'fail',
            f.oddScriptAt,
            `${f.oddScriptWords} word${f.oddScriptWords === 1 ? '' : 's'} whose Latin and Cyrillic letters no language orders so (a Cyrillic letter before a lower-case Latin one, or the two back and forth)`,
          )
        : null,
  },
  {
    name: 'shortMarkLineShare',
    why: 'a short output judged whole: its lines hold marks and nothing else',
    judge: (f, t) =>
      f.shortLines >= SHORT_MARK_LINES && f.shortMarkOnly >= t.shortMarkLineShare
        ? finding(
            'gibberish',
            'fail',
            f.shortMarkAt,
            `${fmt(100 * f.shortMarkOnly, 0)}% of the ${f.shortLines} lines of the output hold marks alone, no letter, digit, bracket or bar ("#", "\`\`\`", "!!")`,
          )
        : null,
  },
  {
    name: 'shortNumberMarkLineShare',
    why: 'a short output judged whole: its lines hold numbers and runs of one mark, or marks alone',
    judge: (f, t) =>
      f.shortNumberMarkLines >= NUMBER_MARK_LINES &&
      f.shortMarkedLines >= SHORT_MARK_LINES &&
      f.shortMarkedShare >= t.shortNumberMarkLineShare
        ? finding(
            'gibberish',
            'fail',
            f.shortNumberMarkAt,
            `${fmt(100 * f.shortMarkedShare, 0)}% of the lines of the output (${f.shortMarkedLines}) hold numbers and runs of one mark or marks alone, no word ("48213 *** 7", "** 90123")`,
          )
        : null,
  },
  {
    name: 'saladFunctionShare',
    why: 'a window of spaced prose with almost no function words and almost no breaks (under saladBreakShare), in a language the function-word lists cover or one eld is not sure of',
    judge: (f, t) => {
      // a window eld is sure is Swedish, Finnish, Turkish or Vietnamese has none of the listed words whatever it says
      const salad = saladUnder(
        f.salad.filter((p) => !unlisted(p)),
        t.saladBreakShare,
      );
      return salad && salad.func <= t.saladFunctionShare
        ? finding(
            'word_salad',
            'fail',
            salad.at,
            `a stretch of words with ${fmt(100 * salad.func, 0)}% function words and hardly a break between them`,
          )
        : null;
    },
  },
  {
    name: 'saladEndWords',
    why: 'a fluent answer that ends in keywords strung after its last sentence',
    judge: (f, t) =>
      f.endWords >= t.saladEndWords
        ? finding(
            'word_salad',
            'fail',
            f.endWordsAt,
            `the text ends in ${f.endWords} words strung together after a sentence, the first in lower case, none a function word and no break between them`,
          )
        : null,
  },
  {
    name: 'soupFunctionShare',
    why: 'a full window of function words and hardly anything else',
    judge: (f, t) =>
      f.func >= t.soupFunctionShare
        ? finding(
            'word_salad',
            'fail',
            f.funcAt,
            `a stretch of words ${fmt(100 * f.func, 0)}% of which are function words ("and the of the"), with hardly a word that says anything`,
          )
        : null,
  },
  {
    name: 'listItems',
    why: 'a run-on line of words drawn from a few (listRepeatShare of them said before)',
    judge: (f, t) =>
      f.listItems >= t.listItems && f.listRepeats / f.listItems >= t.listRepeatShare
        ? finding(
            'word_salad',
            'fail',
            f.listAt,
            `a line of ${f.listItems} words in a row, ${fmt((100 * f.listRepeats) / f.listItems, 0)}% of them said before in it, nearly none a function word`,
          )
        : null,
  },
  {
    name: 'wordLineFunctionRepeats',
    why: 'a text fallen apart into one word a line, function words among them said again (a list names each thing once)',
    judge: (f, t) =>
      f.wordLineFunctionRepeats >= t.wordLineFunctionRepeats &&
      f.wordLineFunctions >= t.wordLineFunctions &&
      f.wordLineFunctions < t.wordLineFunctionShare * f.wordLines
        ? finding(
            'word_salad',
            'fail',
            f.wordLinesAt,
            `${f.wordLines} lines of one word each, ${f.wordLineFunctions} of them a function word alone ("the", "with"), ${f.wordLineFunctionRepeats} of those said before in the run`,
          )
        : null,
  },
  switchRule(
    'switchLettersIntoLatin',
    'a run of Latin prose in a Chinese, Japanese or Korean text, longer than its terms and references run',
  ),
  switchRule('switchLettersAlphabet', 'a run of prose in another spaced alphabet, longer than quoted examples run'),
  switchRule('switchLetters', 'a sentence of prose in another script than the text’s own'),
  {
    name: 'variantSwitchMarks',
    why: 'Chinese going on in the other variant (simplified or traditional) than it opened in',
    judge: (f, t) =>
      f.variantRun >= t.variantSwitchMarks
        ? finding(
            'script_switch',
            'fail',
            f.variantAt,
            `${f.variantRun} characters in a row of ${f.variant === 'simplified' ? 'traditional' : 'simplified'} Chinese in a ${f.variant} text`,
          )
        : null,
  },
  // inside a fenced code block: code is read as code (its identifiers are no malformed words), but a block that turned
  // into noise, or into a line of words drawn from a few, is judged as prose is, by the same thresholds
  {
    name: 'fenced.malformedShare',
    why: 'a code block turned into gibberish, when the prose did not already',
    judge: (f, t, found) => {
      const g = f.fenced;
      return g && g.malformed >= t.malformedShare && !found.some((x) => x.kind === 'gibberish')
        ? finding(
            'gibberish',
            'fail',
            g.malformedAt,
            `${fmt(100 * g.malformed, 0)}% of the words of a stretch inside a code block are no word of any language (case flipping inside, scripts glued, no vowel)`,
          )
        : null;
    },
  },
  {
    name: 'fenced.listItems',
    why: 'a code block turned into a run-on line of words drawn from a few, when the prose did not already',
    judge: (f, t, found) => {
      const g = f.fenced;
      return g &&
        g.listItems >= t.listItems &&
        g.listRepeats / g.listItems >= t.listRepeatShare &&
        !found.some((x) => x.kind === 'word_salad')
        ? finding(
            'word_salad',
            'fail',
            g.listAt,
            `a line of ${g.listItems} words in a row inside a code block, ${fmt((100 * g.listRepeats) / g.listItems, 0)}% of them said before in it, nearly none a function word`,
          )
        : null;
    },
  },
];

/** The rules in order, each finding named after the rule that made it. */
export function judgeLanguage(f: LanguageFigures, t: Values<LanguageThresholds>, ctx?: JudgeContext): LanguageFinding[] {
  const out: LanguageFinding[] = [];
  for (const r of LANGUAGE_RULES) {
    const x = r.judge(f, t, out);
    if (x) out.push({ ...x, rule: r.name });
  }
  // a run in the script of the language the prompt asked for is the answer it asked for (a translation), no drift
  const asked = ctx?.expectLanguage ? scriptOfLanguage(ctx.expectLanguage) : null;
  return asked !== null && asked === f.switchScript ? out.filter((x) => x.kind !== 'script_switch') : out;
}
