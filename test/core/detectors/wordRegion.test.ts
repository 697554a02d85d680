import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isWordRegion, wordsToEnd } from '../../../src/core/detectors/repetition/wordRegion.js';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';
import type { TokenBuffer } from '../../../src/core/text/tokens.js';
import { createRng } from '../../../src/prose/random.js';
import { healthyProse } from '../../helpers/texts.js';

/** Reads the tokens of a text (valid inside `read` only). */
function withTokens<T>(text: string, read: (t: TokenBuffer) => T): T {
  const tk = new Tokenizer();
  tk.push(text);
  return tk.snapshot(() => read(tk.tokens));
}

const CODE = 'function f(a, b) {\n  if (a[0] === b) { return g(a); }\n  const x = { y: [1, 2], z: a < b };\n}\n';

describe('wordRegion: are the tokens from a point to the end words', () => {
  it('tells prose from code at the end of a text', () => {
    withTokens(healthyProse(400, 3), (t) => assert.equal(isWordRegion(t, 0, t.n), true));
    withTokens(CODE.repeat(8), (t) => assert.equal(isWordRegion(t, 0, t.n), false));
  });

  // each row: a stretch of text, whether it reads as words, and why (an exception is a row here, not a branch)
  const rows: Array<[name: string, text: string, words: boolean, why: string]> = [
    [
      'prose with asides and years in brackets',
      'Walt Disney (1901-1966) founded the studio with his brother Roy (the older of the two). Their first character (Oswald) was lost to a distributor, and the loss (a hard one) led to a new mouse. ',
      true,
      'parentheses are prose punctuation as much as code: not counted',
    ],
    [
      'a quiz with list labels',
      'Which is right? a) the first answer b) the second answer c) the third answer d) none of them. ',
      true,
      'labels "a)" are prose',
    ],
    ['code with braces, brackets and semicolons', CODE, false, 'braces, brackets, = and ; stay code punctuation'],
  ];
  for (const [name, text, words, why] of rows)
    it(`${name}: ${words ? 'words' : 'not words'} (${why})`, () => {
      withTokens(text.repeat(6), (t) => assert.equal(isWordRegion(t, 0, t.n), words));
    });

  it('answers two starts in one pass as isWordRegion answers each', () => {
    let asked = 0;
    const texts = [
      healthyProse(300, 5),
      CODE.repeat(5),
      `${healthyProse(150, 7)}\n\n${CODE.repeat(3)}`,
      `${CODE}\n${healthyProse(200, 9)}`,
    ];
    for (const [k, text] of texts.entries()) {
      withTokens(text, (t) => {
        const rnd = createRng(k + 1);
        const starts = [0, t.n, t.n - 1, Math.floor(t.n / 2)];
        for (let i = 0; i < 40; i++) starts.push(Math.floor(rnd() * (t.n + 1)));
        for (const a of starts)
          for (const b of starts.slice(0, 12)) {
            const [wa, wb] = wordsToEnd(t, a, b);
            assert.equal(wa, isWordRegion(t, a, t.n), `text ${k} a ${a} of ${t.n}`);
            assert.equal(wb, isWordRegion(t, b, t.n), `text ${k} b ${b} of ${t.n}`);
            asked++;
          }
      });
    }
    assert.ok(asked > 1000);
  });
});
