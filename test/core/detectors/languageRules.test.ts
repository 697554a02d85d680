/** The language detector's rule table: each rule alone, in order, and the name each finding carries. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Values } from '../../../src/core/detectors/detector.js';
import type { LanguageFigures } from '../../../src/core/detectors/language/figures.js';
import { judgeLanguage, LANGUAGE_RULES } from '../../../src/core/detectors/language/rules.js';
import { LANGUAGE_THRESHOLDS, type LanguageThresholds } from '../../../src/core/detectors/language/thresholds.js';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { formatReport } from '../../../src/core/formatReport.js';
import { detect } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const T = Object.fromEntries(Object.entries(LANGUAGE_THRESHOLDS).map(([k, v]) => [k, v.value])) as Values<LanguageThresholds>;

/** Figures of a text with nothing to say: every reading at rest. */
const calm: LanguageFigures = {
  windows: 4,
  malformed: 0,
  malformedAt: -1,
  malformedLong: 0,
  noise: 0,
  noiseAt: -1,
  singleLetters: 0,
  singleLettersAt: -1,
  shortPieces: 0,
  shortPiecesAt: -1,
  func: 0.4,
  funcAt: 0,
  salad: [{ func: 0.4, breaks: 0.05, at: 0, lang: '', otherCyrillic: false }],
  fenced: null,
  script: 'latin',
  switchScript: '',
  switchLetters: 0,
  switchAt: -1,
  codeChunks: 0,
  codeChunksAt: -1,
  shortCodeLines: 0,
  shortCodeShare: 0,
  shortCodeAt: -1,
  markLines: 0,
  markLinesAt: -1,
  shortLines: 0,
  shortMarkOnly: 0,
  shortMarkAt: -1,
  shortNumberMarkLines: 0,
  shortMarkedLines: 0,
  shortMarkedShare: 0,
  shortNumberMarkAt: -1,
  oddScriptWords: 0,
  oddScriptAt: -1,
  endWords: 0,
  endWordsAt: -1,
  listItems: 0,
  listRepeats: 0,
  listAt: -1,
  wordLines: 0,
  wordLineFunctions: 0,
  wordLineFunctionRepeats: 0,
  wordLinesAt: -1,
  variant: '',
  variantRun: 0,
  variantAt: -1,
};

const fenced = { malformed: 0, malformedAt: -1, listItems: 0, listRepeats: 0, listAt: -1 };

/** [rule, figures that cross only its threshold, kind it reports] */
const ROWS: Array<[string, Partial<LanguageFigures>, string]> = [
  ['malformedShare', { malformed: 0.3, malformedAt: 5 }, 'gibberish'],
  ['noiseShare', { noise: 0.31, noiseAt: 5 }, 'gibberish'],
  ['singleLetterShare', { singleLetters: 0.9, singleLettersAt: 5 }, 'gibberish'],
  ['shortPieceShare', { shortPieces: 0.7, shortPiecesAt: 5 }, 'gibberish'],
  ['codeChunkShare', { codeChunks: 0.5, codeChunksAt: 5 }, 'gibberish'],
  ['shortCodeLineShare', { shortCodeLines: 3, shortCodeShare: 0.5, shortCodeAt: 5 }, 'gibberish'],
  ['markLineShare', { markLines: 0.6, markLinesAt: 5 }, 'gibberish'],
  ['oddScriptWords', { oddScriptWords: 2, oddScriptAt: 5 }, 'gibberish'],
  ['shortMarkLineShare', { shortLines: 5, shortMarkOnly: 0.8, shortMarkAt: 5 }, 'gibberish'],
  ['shortNumberMarkLineShare', { shortNumberMarkLines: 2, shortMarkedLines: 3, shortMarkedShare: 0.5, shortNumberMarkAt: 5 }, 'gibberish'],
  ['saladFunctionShare', { salad: [{ func: 0.02, breaks: 0.05, at: 5, lang: '', otherCyrillic: false }] }, 'word_salad'],
  ['saladEndWords', { endWords: 6, endWordsAt: 5 }, 'word_salad'],
  ['soupFunctionShare', { func: 0.92, funcAt: 5 }, 'word_salad'],
  ['listItems', { listItems: 40, listRepeats: 20, listAt: 5 }, 'word_salad'],
  ['wordLineFunctionRepeats', { wordLines: 60, wordLineFunctions: 20, wordLineFunctionRepeats: 3, wordLinesAt: 5 }, 'word_salad'],
  ['switchLettersIntoLatin', { script: 'cjk', switchScript: 'latin', switchLetters: 600, switchAt: 5 }, 'script_switch'],
  ['switchLettersAlphabet', { script: 'latin', switchScript: 'greek', switchLetters: 200, switchAt: 5 }, 'script_switch'],
  ['switchLetters', { script: 'latin', switchScript: 'cjk', switchLetters: 12, switchAt: 5 }, 'script_switch'],
  ['variantSwitchMarks', { variant: 'simplified', variantRun: 12, variantAt: 5 }, 'script_switch'],
  ['fenced.malformedShare', { fenced: { ...fenced, malformed: 0.5, malformedAt: 5 } }, 'gibberish'],
  ['fenced.listItems', { fenced: { ...fenced, listItems: 50, listRepeats: 40, listAt: 5 } }, 'word_salad'],
];

describe('language rules: an ordered table, each rule alone', () => {
  it('a text at rest meets no rule', () => assert.deepEqual(judgeLanguage(calm, T), []));

  it('the table has one row here per rule, each name once', () => {
    const names = LANGUAGE_RULES.map((r) => r.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(
      ROWS.map((r) => r[0]),
      names,
    );
  });

  for (const [name, over, kind] of ROWS) {
    it(`${name} fires alone, names itself and places its finding`, () => {
      const found = judgeLanguage({ ...calm, ...over }, T);
      assert.deepEqual(
        found.map((f) => [f.rule, f.kind, f.severity, f.atChar]),
        [[name, kind, 'fail', 5]],
      );
      assert.ok(found[0]!.detail.length > 0);
    });
  }

  it('the switch thresholds part the cases: 12 letters of Greek in English are quoted examples, 12 of Chinese a sentence', () => {
    assert.deepEqual(judgeLanguage({ ...calm, switchScript: 'greek', switchLetters: 12, switchAt: 5 }, T), []);
    assert.deepEqual(
      judgeLanguage({ ...calm, switchScript: 'cjk', switchLetters: 12, switchAt: 5 }, T).map((f) => f.rule),
      ['switchLetters'],
    );
    assert.deepEqual(judgeLanguage({ ...calm, script: 'hangul', switchScript: 'latin', switchLetters: 420, switchAt: 5 }, T), []);
  });

  it('a code block that failed as the prose did adds nothing: the prose rule came first', () => {
    const both = { ...calm, malformed: 0.4, malformedAt: 1, fenced: { ...fenced, malformed: 0.5, malformedAt: 9 } };
    assert.deepEqual(
      judgeLanguage(both, T).map((f) => f.rule),
      ['malformedShare'],
    );
  });

  it('a window eld is sure is in a language the function-word lists do not cover is no salad; one in a listed language or unsure is', () => {
    const at = (lang: string) =>
      judgeLanguage({ ...calm, salad: [{ func: 0.02, breaks: 0.05, at: 5, lang, otherCyrillic: false }] }, T).map((f) => f.rule);
    assert.deepEqual(at('sv'), []);
    assert.deepEqual(at('vi'), []);
    assert.deepEqual(at('en'), ['saladFunctionShare']);
    assert.deepEqual(at(''), ['saladFunctionShare']);
  });

  it("a window written in a Cyrillic alphabet other than Russian's is no salad, whatever language eld names", () => {
    const salad = [{ func: 0.02, breaks: 0.05, at: 5, lang: 'ru', otherCyrillic: true }];
    assert.deepEqual(
      judgeLanguage({ ...calm, salad }, T).map((f) => f.rule),
      [],
    );
  });

  it('saladBreakShare is read as configured: the front is searched under it', () => {
    const front = { ...calm, salad: [{ func: 0.04, breaks: 0.2, at: 5, lang: '', otherCyrillic: false }] };
    assert.deepEqual(judgeLanguage(front, T), []);
    assert.deepEqual(
      judgeLanguage(front, { ...T, saladBreakShare: 0.2 }).map((f) => f.rule),
      ['saladFunctionShare'],
    );
  });

  it('a real text: the finding names its rule, and the text report shows it', () => {
    const codes = Array.from({ length: 30 }, (_, i) => `${'QXZKPW'[i % 6]}${i % 10}${'MRTB'[i % 4]}${(i * 7) % 10}${'LNVY'[i % 4]}`).join(
      ' ',
    );
    const text = `${healthyProse(300, 3)} ${codes}`;
    // the codes are words without function words too, but all of them capitals: a stretch of names, not word salad
    assert.deepEqual(
      detect('language', text).findings.map((f) => f.rule),
      ['codeChunkShare'],
    );
    assert.match(formatReport(analyzeText(text)), /- fail gibberish: .* \(rule codeChunkShare\)\n/);
  });
});
