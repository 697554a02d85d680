import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SampleOutput } from '../../src/baseline/baselineFormat.js';
import { firstDeparture } from '../../src/baseline/firstDeparture.js';

const out = (tokens: string[], truncated = false): SampleOutput => ({
  sample: 0,
  temperature: 0,
  seed: 1,
  tokens,
  totalTokens: tokens.length + (truncated ? 10 : 0),
  truncated,
});
const words = (s: string) => s.split(/(?= )/);

describe('firstDeparture', () => {
  it('the same tokens are identical', () => {
    assert.deepEqual(firstDeparture(out(words('a b c')), out(words('a b c'))), { identical: true, sample: 0, comparedTokens: 3 });
  });

  it('names the first differing token, its char offset and both sides', () => {
    const r = firstDeparture(out(words('the cache is flushed every hour')), out(words('the cache is rebuilt on start')));
    assert.ok(!r.identical);
    assert.equal(r.tokenIndex, 3);
    assert.equal(r.charOffset, 'the cache is'.length);
    assert.equal(r.context, 'the cache is');
    assert.equal(r.before, ' flushed every hour');
    assert.equal(r.after, ' rebuilt on start');
  });

  it('the first token differing is index 0', () => {
    const r = firstDeparture(out(['x', ' y']), out(['z', ' y']));
    assert.ok(!r.identical);
    assert.equal(r.tokenIndex, 0);
    assert.equal(r.charOffset, 0);
  });

  it('an output that ends sooner departs where it ends; one cut at the kept limit does not', () => {
    const ended = firstDeparture(out(words('a b c d')), out(words('a b')));
    assert.ok(!ended.identical);
    assert.equal(ended.tokenIndex, 2);
    assert.equal(ended.after, '');
    assert.equal(ended.before, ' c d');
    assert.equal(firstDeparture(out(words('a b c d')), out(words('a b'), true)).identical, true);
    assert.equal(firstDeparture(out(words('a b'), true), out(words('a b c d'))).identical, true);
  });

  it('excerpts are short', () => {
    const long = Array.from({ length: 200 }, (_, i) => ` word${i}`);
    const r = firstDeparture(out(long), out([...long.slice(0, 100), ' other', ...long.slice(101)]));
    assert.ok(!r.identical);
    assert.equal(r.tokenIndex, 100);
    assert.ok(r.context.length <= 41 && r.context.startsWith('…'), r.context);
    assert.ok(r.before.length <= 61 && r.after.length <= 61);
  });
});
