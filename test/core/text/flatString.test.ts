import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flatString } from '../../../src/core/text/flatString.js';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';

describe('flatString', () => {
  // rows of [text, why]: every char comes back as it was, whatever the kind of string
  const base = 'Grüße, 世界! 😀 a line\nand a tab\t&nbsp;end. ';
  const rows: Array<[string, string]> = [
    ['', 'empty'],
    ['short', 'under the length of a view: returned as it is'],
    [base.repeat(40), 'one-byte and two-byte chars, an astral char'],
    [base.repeat(40).slice(7, 901), 'a slice of another string'],
    [`${base.repeat(20)}${'x'.repeat(50)}`, 'two strings joined'],
    [`lone ${'\ud800'} high and ${'\udc00'} low surrogates, written as they are ${'z'.repeat(20)}`, 'lone surrogates'],
    ['plain ASCII text, long enough to be a view of another string', 'one byte a char'],
  ];
  for (const [text, why] of rows) {
    it(`${why}: the same chars`, () => {
      const flat = flatString(text);
      assert.equal(flat.length, text.length);
      assert.equal(flat, text);
    });
  }
  it('a second call does not change what the first returned (the copy is not the scratch buffer)', () => {
    const a = flatString('first text, long enough to be copied');
    flatString('a second, different text that overwrites the scratch buffer');
    assert.equal(a, 'first text, long enough to be copied');
  });
});

describe('Tokenizer reads a view of a string as the string itself', () => {
  it('a slice, a joined string and a flat copy give the same tokens', () => {
    const whole = `prefix ${'The cat&nbsp;sat on the mat, 12.5 times; 世界 😀\n'.repeat(30)}`;
    const tokensOf = (s: string) => {
      const t = new Tokenizer(s.length);
      t.push(s);
      return t.snapshot(() => Array.from(t.tokens.id.subarray(0, t.tokens.n)));
    };
    const sliced = whole.slice(7);
    const joined = `${whole.slice(7, 400)}${whole.slice(400)}`;
    const expected = tokensOf(flatString(sliced));
    assert.ok(expected.length > 100);
    assert.deepEqual(tokensOf(sliced), expected);
    assert.deepEqual(tokensOf(joined), expected);
  });
});
