import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { giveBackTokenBuffer, TokenBuffer, takeTokenBuffer } from '../../../src/core/text/tokens.js';

describe('the token buffer a whole-text analysis gives back', () => {
  it('is handed out empty to the next call that fits in it, and only once', () => {
    const b = new TokenBuffer(1000);
    b.push(0, 3, 7, 1);
    giveBackTokenBuffer(b);
    const again = takeTokenBuffer(500);
    assert.equal(again, b);
    assert.equal(again.n, 0);
    assert.notEqual(takeTokenBuffer(500), b, 'taken already');
  });

  it('is not handed out to a call that needs more room', () => {
    const b = new TokenBuffer(100);
    giveBackTokenBuffer(b);
    const bigger = takeTokenBuffer(10_000);
    assert.notEqual(bigger, b);
    assert.ok(bigger.id.length >= 10_000);
  });

  it('is not kept when it is huge (a daemon would hold it for good)', () => {
    const huge = new TokenBuffer(1 << 20);
    giveBackTokenBuffer(huge);
    assert.notEqual(takeTokenBuffer(16), huge);
  });

  // rows of [text, why]: analysed on a fresh buffer, then again after a longer text left its tokens in the one given back
  const loop = 'The same sentence comes back again and again. '.repeat(60);
  const rows: Array<[string, string]> = [
    ['A short healthy answer.', 'a short answer'],
    [`${'word '.repeat(30)}end`, 'a word loop shorter than the text before it'],
    ['{\n\n\n\n', 'a brace and blank lines'],
    [loop.slice(0, 900), 'a sentence loop cut short'],
  ];
  for (const [text, why] of rows) {
    it(`${why}: the same analysis after a longer text used the buffer`, () => {
      const fresh = JSON.stringify(analyzeText(text, { score: true }));
      analyzeText(`${loop}\n\n${'Other prose, with words of its own, and code: x = f(y);\n'.repeat(80)}`, { score: true });
      assert.equal(JSON.stringify(analyzeText(text, { score: true })), fresh);
    });
  }
});
