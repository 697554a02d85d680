/**
 * One word a line (wordLines.ts): a text that fell apart into one word a line puts function
 * words on lines of their own and says them again; lists written one item a line (nouns,
 * names, a shopping list, stop words), poems and scripts do not. Each row is a text written
 * here, read by the language detector and judged by the analyzer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { detect } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

/** `n` words a line, drawn in a fixed order from `from` (a small generator, so the rows stay the same). */
function drawn(from: readonly string[], n: number, seed = 7): string {
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    out.push(from[(s >>> 16) % from.length]!);
  }
  return out.join('\n');
}

const PROSE_WORDS = [
  'the',
  'river',
  'with',
  'stones',
  'and',
  'boats',
  'from',
  'harbour',
  'for',
  'morning',
  'that',
  'light',
  'into',
  'fields',
];

const STOP_WORDS = `a an the and or but if then than that this these those of to in on at by for with from into over
under about after before between through during without within is are was were be been being do does did has have had
will would shall should can could may might must not no yes i me my we us our you your he him his she her it its they
them their who whom whose which what when where why how all any each every some such both either neither other`
  .split(/\s+/)
  .filter(Boolean);

/** [name, text, whether this reading fails it] (a text it leaves ok must stay ok as a whole too, unless said otherwise) */
const ROWS: Array<[string, string, boolean, boolean?]> = [
  [
    '60 lines of words drawn from prose, function words among them, after a healthy paragraph',
    `${healthyProse(120, 4)}\n\n${drawn(PROSE_WORDS, 60)}`,
    true,
  ],
  ['the same with blank lines between the words', `${healthyProse(120, 5)}\n\n${drawn(PROSE_WORDS, 60).split('\n').join('\n\n')}`, true],
  [
    'a shopping list',
    'Here is the shopping list for the week:\n\nmilk\neggs\nbread\nbutter\napples\nonions\ncarrots\nrice\npasta\ncheese\ncoffee\ntea\nyoghurt\nflour\nsugar\nsalt\n',
    false,
  ],
  [
    'a list of nouns',
    `Nouns for the lesson:\n\n${'table chair window door garden kitchen bottle letter pencil mountain river forest island bridge market tower engine ladder basket mirror'.split(' ').join('\n')}`,
    false,
  ],
  [
    'a list of names',
    `The team, one a line:\n\n${'Alice Bob Carol David Erin Frank Grace Heidi Ivan Judy Mallory Niaj Olivia Peggy Rupert Sybil Trent Victor Walter'.split(' ').join('\n')}`,
    false,
  ],
  [
    'a poem with a few one-word lines',
    'The sea came in\nslowly\nover the grey stones\nand\nthe gulls went quiet.\nThen\nnothing\nbut the wind\nand\nthe long dark of the night.\n',
    false,
  ],
  [
    'a bash script with do, done, then and else alone on their lines',
    '#!/bin/sh\nfor f in *.log\ndo\n  if [ -s "$f" ]\n  then\n    gzip "$f"\n  else\n    rm "$f"\n  fi\ndone\nwhile read line\ndo\n  echo "$line"\ndone < list.txt\nif true\nthen\n  echo ok\nelse\n  echo no\nfi\n',
    false,
  ],
  ['a list of English stop words under a heading', `Stop words\n\n${STOP_WORDS.join('\n')}\n`, false],
  [
    'a stop-word list that holds other words too, under 80% function words, each said once',
    `Stop words\n\n${[...STOP_WORDS.slice(0, 40), ...'again further once own same ourselves yours itself themselves below above off out up down'.split(' ')].join('\n')}\n`,
    false,
  ],
  // all function words: not this reading's; the repetition rules judge lines said again and again back to back
  ['yes and no a line, one answer per question', `Answers:\n\n${drawn(['yes', 'no'], 40)}\n`, false, false],
];

describe('language: one word a line', () => {
  for (const [name, text, fails, wholeOk = !fails] of ROWS) {
    it(`${name}: ${fails ? 'fails' : wholeOk ? 'stays ok' : 'left to other rules'}`, () => {
      const rules = detect('language', text).findings.map((f) => f.rule);
      assert.equal(rules.includes('wordLineFunctionRepeats'), fails, rules.join(', '));
      if (wholeOk) assert.notEqual(analyzeText(text).verdict, 'fail');
    });
  }

  it('the finding says what it saw and where the run starts', () => {
    const head = `${healthyProse(120, 4)}\n\n`;
    const f = detect('language', `${head}${drawn(PROSE_WORDS, 60)}`).findings.find((x) => x.rule === 'wordLineFunctionRepeats');
    assert.ok(f);
    assert.equal(f.atChar, head.length);
    assert.match(f.detail, /^60 lines of one word each, \d+ of them a function word alone/);
  });

  it('the stop-word list with other words is under the function-word share: only its repeats (none) keep it ok', () => {
    const row = ROWS.find((r) => r[0].startsWith('a stop-word list that holds'))!;
    const f = detect('language', row[1]).figures;
    assert.ok(f.wordLineFunctions >= 8 && f.wordLineFunctions < 0.8 * f.wordLines, `${f.wordLineFunctions} of ${f.wordLines}`);
    assert.equal(f.wordLineFunctionRepeats, 0);
  });

  it('a line a comment mark or code opens is not a word alone', () => {
    const text = `${healthyProse(60, 2)}\n\n${drawn(PROSE_WORDS, 60)
      .split('\n')
      .map((w) => `// ${w}`)
      .join('\n')}`;
    assert.equal(detect('language', text).figures.wordLineFunctions, 0);
  });
});
