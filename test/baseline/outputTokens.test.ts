import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outputTokens } from '../../src/baseline/outputTokens.js';

describe('outputTokens', () => {
  it('splits words with their leading spaces, numbers, marks and line breaks', () => {
    assert.deepEqual(outputTokens('The cache, 42 GB.\n\nNext  step', 100).tokens, [
      'The',
      ' cache',
      ',',
      ' 42',
      ' GB',
      '.',
      '\n\n',
      'Next',
      '  step',
    ]);
  });

  it('joins back to the text, whatever it holds', () => {
    for (const text of [
      '',
      '  \n \r\n\t x',
      'naïve café 😀😀 — 中文字 ¿qué?',
      '```js\nconst a = [1, 2];\n```\n',
      'e\u0301t\u00e9 ' + 'x'.repeat(50),
    ]) {
      const { tokens, total } = outputTokens(text, 1e9);
      assert.equal(tokens.join(''), text, JSON.stringify(text));
      assert.equal(total, tokens.length);
    }
  });

  it('keeps the first max tokens and counts them all', () => {
    const r = outputTokens('one two three four five', 2);
    assert.deepEqual(r.tokens, ['one', ' two']);
    assert.equal(r.total, 5);
  });
});
