import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { normalisedTail } from '../../../src/core/detectors/repetition/normalisedTail.js';
import { paragraphChain } from '../../../src/core/detectors/repetition/paragraphChain.js';
import { restatedPerson } from '../../helpers/copyShapes.js';
import { healthyProse } from '../../helpers/texts.js';

const profile = (hobbies: string[]) =>
  `Tomasz Nowak is a bus driver from Gdansk who has driven the night line along the coast for twenty years. He likes ${hobbies.join(', ')}, and his passengers know him for the radio he keeps at a low volume.`;
const HOBBIES = ['fishing', 'chess', 'old maps', 'jazz records', 'long walks', 'crosswords'];
const growing = (n: number) => Array.from({ length: n }, (_, k) => profile(HOBBIES.slice(0, 2 + k))).join('\n\n');

const letter = (name: string) =>
  `Dear ${name}, thank you for joining the spring cleanup of the riverside park on Saturday. We will meet at the boathouse at nine, and gloves, bags and coffee will be waiting for everyone who comes along. Best regards, the park committee.`;

describe('paragraphChain: paragraphs at the end that each say the one before again, longer', () => {
  it('counts the links back from the end and says where the chain starts', () => {
    const opening = `${healthyProse(600, 4)}\n\n`;
    const c = paragraphChain(normalisedTail(`${opening}${growing(4)}\n`));
    assert.equal(c.links, 3);
    assert.equal(c.at, opening.length);
  });

  const rows: Array<[name: string, text: string, want: RegExp | 'ok', why: string]> = [
    [
      'a profile restated four times with a growing list, after an opening',
      `${healthyProse(900, 2)}\n\n${growing(4)}`,
      /^cycling$/,
      '3 links',
    ],
    ['the same profile restated three times', growing(3), /^cycling$/, '2 links: chainLinks'],
    ['a profile said once more with one more hobby', `${healthyProse(900, 2)}\n\n${growing(2)}`, 'ok', '1 link, under chainLinks'],
    [
      'three letters from one template to people of names of one length',
      ['Anna', 'Mark', 'Ines'].map(letter).join('\n\n'),
      'ok',
      'a letter holds most of the one before but is no longer than it',
    ],
    [
      'three letters from one template to names a letter or two longer each',
      ['Ann', 'Mark', 'Agnes'].map(letter).join('\n\n'),
      'ok',
      'a paragraph must add 3 normalised chars to the one before',
    ],
    [
      'the same paragraph three times',
      Array.from({ length: 3 }, () => profile(HOBBIES.slice(0, 3))).join('\n\n'),
      'ok',
      'no paragraph is longer: copies are for the loop readings',
    ],
    ['a story of different paragraphs', healthyProse(2000, 9), 'ok', 'no paragraph holds the one before'],
  ];
  for (const [name, text, want, why] of rows)
    it(`${name}: ${want === 'ok' ? 'ok' : want.source} (${why})`, () => {
      const a = analyzeText(text);
      if (want === 'ok') {
        assert.ok(!a.findings.some((f) => f.severity === 'fail' && /each say the one before/.test(f.detail)), a.reasons.join(' | '));
        return;
      }
      assert.equal(a.verdict, 'fail', a.reasons.join(' | '));
      assert.ok(
        a.findings.some((f) => want.test(f.kind) && /each say the one before/.test(f.detail)),
        a.reasons.join(' | '),
      );
    });

  it('the written profile of issue 36 fails', () => assert.equal(analyzeText(restatedPerson()).verdict, 'fail'));
});
