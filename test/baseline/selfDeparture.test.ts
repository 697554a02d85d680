import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SampleOutput } from '../../src/baseline/baselineFormat.js';
import { firstDeparture } from '../../src/baseline/firstDeparture.js';
import { departureIsChange, selfDeparture, spreadText } from '../../src/baseline/selfDeparture.js';

const out = (sample: number, text: string): SampleOutput => {
  const tokens = text.split(' ');
  return { sample, temperature: 0, seed: 1, tokens, totalTokens: tokens.length, truncated: false };
};
const base = 'a b c d e f g h';

describe('selfDeparture', () => {
  it('identical repeats never departed; the run count includes the first', () => {
    assert.deepEqual(selfDeparture([out(0, base)], [[out(0, base)]]), { repeats: 2, tokenIndex: null });
  });

  it('the earliest departure over every sample of every repeat', () => {
    const first = [out(0, base), out(1, base)];
    const repeats = [
      [out(0, 'a b c d e f X h'), out(1, base)],
      [out(0, base), out(1, 'a b c d X f g h')],
    ];
    assert.deepEqual(selfDeparture(first, repeats), { repeats: 3, tokenIndex: 4 });
  });

  it('a sample a repeat has no output for is left out; nothing compared is nothing measured', () => {
    assert.deepEqual(selfDeparture([out(0, base), out(1, base)], [[out(1, 'a b X')]]), { repeats: 2, tokenIndex: 2 });
    assert.equal(selfDeparture([out(0, base)], [[out(3, base)]]), undefined);
    assert.equal(selfDeparture([out(0, base)], []), undefined);
  });
});

describe('departureIsChange', () => {
  const at = (i: number) => firstDeparture(out(0, base), out(0, `${base.split(' ').slice(0, i).join(' ')} X`));
  it('identical is never a change', () => {
    assert.equal(departureIsChange(firstDeparture(out(0, base), out(0, base)), { repeats: 2, tokenIndex: null }), false);
  });
  it('without a measured spread (an earlier baseline), every departure is a change, as before', () => {
    assert.equal(departureIsChange(at(5), undefined), true);
  });
  it('a build that never departed from itself: any departure is a change', () => {
    assert.equal(departureIsChange(at(7), { repeats: 2, tokenIndex: null }), true);
  });
  it('only earlier than the build departed from itself is a change; at or after it is within the spread', () => {
    assert.equal(at(3).identical, false);
    assert.equal(departureIsChange(at(3), { repeats: 2, tokenIndex: 5 }), true);
    assert.equal(departureIsChange(at(5), { repeats: 2, tokenIndex: 5 }), false);
    assert.equal(departureIsChange(at(6), { repeats: 2, tokenIndex: 5 }), false);
  });
  it('says the spread in words', () => {
    assert.equal(spreadText({ repeats: 2, tokenIndex: null }), 'never departed in 2 runs');
    assert.equal(spreadText({ repeats: 3, tokenIndex: 900 }), 'departed at token 900 in 3 runs');
  });
});
