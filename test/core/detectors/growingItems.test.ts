/**
 * Items at the end of a list that each are the one before with more added (growingItems.ts):
 * the reading on written lists, and the verdicts it gives with the other readings.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../../src/core/analyzeText.js';
import { growingItems } from '../../../src/core/detectors/repetition/growingItems.js';
import { healthyProse } from '../../helpers/texts.js';

/** A keyword list of `n` keys, each the one before with `_word` added, cut after `cut` chars of the next key (none when 0). */
function growingKeys(n: number, cut = 0): string {
  const words = ['lamp', 'river', 'window', 'harbor', 'candle', 'violin', 'meadow', 'ladder', 'pocket', 'engine'];
  const keys: string[] = [];
  let key = 'carpet';
  for (let k = 0; k < n; k++) {
    keys.push(`"${key}"`);
    key += `_${words[k % words.length]!}`;
  }
  const open = `{"keywords": [${keys.join(', ')}`;
  return cut > 0 ? `${open}, "${key.slice(0, cut)}` : open;
}

describe('growingItems: the run of items at the end that each hold the one before', () => {
  it('counts the keys of a growing list from the second (the first is glued to its key name)', () => {
    const g = growingItems(growingKeys(6));
    assert.equal(g.items, 5);
    assert.ok(g.coverage > 0.8, String(g.coverage));
    assert.equal(growingKeys(6).slice(g.at, g.at + 'carpet_lamp'.length), 'carpet_lamp');
  });
  it('leaves out a last item cut short by the token limit', () => assert.equal(growingItems(growingKeys(6, 9)).items, 5));
  it('needs 2 chars more per item: a prefix spelt a letter at a time is no run', () =>
    assert.equal(growingItems('b, ba, ban, bana, banan, banana').items, 1));
  it('folds ASCII case, trims quotes and brackets, reads lines and semicolons', () => {
    assert.equal(growingItems('Data\ndata science\nDATA SCIENCE TEAM\ndata science team lead').items, 4);
    assert.equal(growingItems("('a1'; 'a1b2'; 'a1b2c3')").items, 3);
  });
  it('stops at the first item that does not hold the one before', () =>
    assert.equal(growingItems('alpha, beta, beta_one, beta_one_two').items, 3));
  it('an empty text and a text of one item have no run', () => {
    assert.deepEqual(growingItems('   '), { items: 0, at: -1, coverage: 0 });
    assert.equal(growingItems('just one sentence here').items, 1);
  });
});

describe('list_runaway: five growing items to the end, half the output (growingItems)', () => {
  const verdict = (text: string) => {
    const a = analyzeText(text);
    return { verdict: a.verdict, kinds: a.findings.filter((f) => f.severity === 'fail').map((f) => f.kind), why: a.reasons.join(' | ') };
  };
  it('a keyword list whose every key is the one before with a word more, cut mid-key, fails', () => {
    const v = verdict(growingKeys(7, 12));
    assert.equal(v.verdict, 'fail', v.why);
    assert.ok(v.kinds.includes('list_runaway'), v.why);
  });
  it('four growing items are not enough (the paths down to a file, listed)', () =>
    assert.equal(verdict('/usr\n/usr/local\n/usr/local/lib\n/usr/local/lib/python3').verdict, 'ok'));
  it('a letter pyramid and the prefixes of a word stay ok (each grows by one char)', () => {
    assert.equal(verdict('A\nAB\nABC\nABCD\nABCDE\nABCDEF\nABCDEFG').verdict, 'ok');
    assert.equal(verdict('The prefixes of "banana": b, ba, ban, bana, banan, banana').verdict, 'ok');
  });
  it('a growing list that ends a long answer, under half of it, stays ok', () => {
    const v = verdict(`${healthyProse(1500, 4)}\n\nThe keys we tried: ${growingKeys(6).slice('{"keywords": ['.length)}.`);
    assert.equal(v.verdict, 'ok', v.why);
  });
});
