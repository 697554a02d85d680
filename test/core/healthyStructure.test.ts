/**
 * Healthy structure that a missing normalisation once failed (issue 35), each on a text written
 * for this test, as rows of [name, text, expected verdict and finding kind, why]. A shape that
 * must stay ok is a row here, never a branch in a detector.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { healthyProse } from '../helpers/texts.js';

const POEM = [
  'The harbour wakes before the gulls,',
  'a lantern swings on tarred-black hulls,',
  'the tide goes out and leaves its lace',
  'of salt along the quayside face.',
  'A cooper rolls his barrels down,',
  'the bells begin across the town,',
  'and fishwives call the morning price',
  'of mackerel packed in shaven ice.',
];

/** The poem with each line indented by `k` copies of a character reference, every fourth twice as deep. */
function indented(reference: string, k: number): string {
  return POEM.map((l, i) => `${reference.repeat(i % 4 === 3 ? 2 * k : k)}${l}<br>`).join('\n');
}

const licence = [healthyProse(1500, 21), healthyProse(1500, 22), healthyProse(1500, 23)].join('\n\f\n');

const ROWS: Array<[name: string, text: string, want: 'ok' | RegExp, why: string]> = [
  ['a poem indented with &ensp;', `Here is the poem:\n\n${indented('&ensp;', 12)}\n`, 'ok', 'references of whitespace are whitespace'],
  ['a poem indented with &#x2003;', `Here is the poem:\n\n${indented('&#x2003;', 8)}\n`, 'ok', 'numeric references too'],
  ['a licence with form-feed page breaks', licence, 'ok', 'form feed is whitespace'],
  ['a flood of &nbsp; at the end', `${healthyProse(600, 4)}${'&nbsp;'.repeat(400)}`, /whitespace_flood/, 'read as the whitespace it is'],
  [
    'a flood of &amp; at the end',
    `${healthyProse(600, 4)}${'&amp;'.repeat(400)}`,
    /word_loop|line_loop|flood/,
    'other references stay chars',
  ],
];

describe('healthy structure, normalised before it is judged', () => {
  for (const [name, text, want, why] of ROWS) {
    it(`${name}: ${want === 'ok' ? 'ok' : want.source} (${why})`, () => {
      const a = analyzeText(text);
      if (want === 'ok') assert.equal(a.verdict, 'ok', a.reasons.join(' | '));
      else {
        assert.equal(a.verdict, 'fail', a.reasons.join(' | '));
        assert.ok(
          a.findings.some((f) => f.severity === 'fail' && want.test(f.kind)),
          a.reasons.join(' | '),
        );
      }
    });
  }
});
