import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';
import { K_PUNCT, KIND_MASK } from '../../../src/core/text/tokens.js';
import { isSentenceEndChar, unitKind } from '../../../src/core/text/units.js';

/** The kind of a text taken as one unit. */
function kindOf(text: string): string {
  const t = new Tokenizer();
  t.push(text);
  return t.snapshot(() => {
    const b = t.tokens;
    return unitKind(b, 0, b.n, (i) => (b.info[i]! & KIND_MASK) === K_PUNCT && isSentenceEndChar(text.charCodeAt(b.start[i]!)));
  });
}

describe('unitKind: one name per repeated unit, whatever detector asks', () => {
  const table: Array<[string, string]> = [
    ['!!', 'punctuation'],
    ['|---', 'punctuation'],
    ['</div>', 'tag'],
    ['milk', 'word'],
    ['the,', 'word'],
    ['自强', 'word'],
    ['is a quote', 'phrase'],
    ['David descends into his cap every day.', 'sentence'],
    ['It works. It really works.', 'sentence'],
    ['A child who is full of fear,\nA child', 'line'],
    ['First paragraph here.\n\nSecond one.', 'paragraph'],
  ];
  for (const [text, kind] of table) it(`${JSON.stringify(text)} is a ${kind}`, () => assert.equal(kindOf(text), kind));
});
