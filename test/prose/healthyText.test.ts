import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { createHealthyText } from '../../src/prose/healthyText.js';
import { tokenize } from '../../src/prose/tokenize.js';

/** The first `count` tokens of the healthy stream for `seed`, as text. */
function healthyTokens(seed: number, count: number): string {
  const text = createHealthyText(seed);
  const tokens: string[] = [];
  while (tokens.length < count) tokens.push(...tokenize(text.nextBlock()));
  return tokens.slice(0, count).join('');
}

function gzipRatio(text: string): number {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 6 }).length / Buffer.byteLength(text, 'utf8');
}

describe('healthy text', { timeout: 20_000 }, () => {
  for (const seed of [1, 2, 0xdeadbeef]) {
    it(`10k tokens (seed ${seed}) repeat no sentence or line and compress like prose`, () => {
      const text = healthyTokens(seed, 10_000);
      const units = text
        .split(/(?<=[.!?])\s+|\n+/)
        .map((unit) => unit.trim())
        .filter((unit) => unit.length >= 20);
      assert.ok(units.length > 300, `only ${units.length} sentences`);
      const seen = new Set<string>();
      for (const unit of units) {
        assert.ok(!seen.has(unit), `repeated: ${unit}`);
        seen.add(unit);
      }
      const ratio = gzipRatio(text);
      assert.ok(ratio > 0.25, `gzip ratio ${ratio.toFixed(3)}`);
    });
  }

  it('has a large vocabulary and the usual markdown blocks', () => {
    const text = healthyTokens(3, 10_000);
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    assert.ok(new Set(words).size > 600, `${new Set(words).size} distinct words`);
    assert.ok(new Set(words).size / words.length > 0.08);
    assert.match(text, /^#{2,3} /m, 'headings');
    assert.match(text, /^(- |\d+\. )/m, 'lists');
    assert.match(text, /^```\w+$/m, 'code blocks');
    // No word repeated back to back more than twice.
    assert.doesNotMatch(text, /\b(\w+)( \1\b){2,}/);
  });

  it('is deterministic per seed', () => {
    assert.equal(healthyTokens(11, 2000), healthyTokens(11, 2000));
    assert.notEqual(healthyTokens(11, 2000), healthyTokens(12, 2000));
  });

  it('keeps producing unique sentences far into an endless stream', () => {
    const text = createHealthyText(5);
    const recent = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const sentence = text.sentence();
      assert.ok(!recent.has(sentence), `repeated after ${i}: ${sentence}`);
      recent.add(sentence);
    }
  });
});

describe('tokenize', () => {
  it('splits into word pieces that join back to the text', () => {
    const samples = [
      'Hello world, this is a test of implementation-details 12345.',
      '</div></div></div>',
      '!!!!!!!!!',
      'a  b\n\n\n  c\t\td',
      'µs → 😀😀😀😀😀😀😀😀😀😀😀😀 done',
      '          \n',
    ];
    for (const sample of samples) {
      const tokens = tokenize(sample);
      assert.equal(tokens.join(''), sample);
      assert.ok(tokens.every((token) => token.length > 0));
      // No token splits a surrogate pair.
      assert.ok(tokens.every((token) => !/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(token)));
    }
    assert.deepEqual(tokenize('The cat, 2024.'), ['The', ' cat', ',', ' 202', '4', '.']);
    assert.deepEqual(tokenize(' the the'), [' the', ' the']);
  });

  it('averages about four characters per token on prose', () => {
    const text = createHealthyText(9).paragraph();
    const perToken = text.length / tokenize(text).length;
    assert.ok(perToken > 3 && perToken < 6.5, `${perToken}`);
  });
});
