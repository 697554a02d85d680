/**
 * The invariants every detector keeps, checked for all of them through the engine: any
 * split of the same text ends in the same figures, and a snapshot mid-stream changes nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../../src/core/engine.js';
import { resolveThresholds } from '../../../src/core/streamAnalyzer.js';
import { randomSplit } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const TEXTS: Array<[string, string]> = [
  ['prose then a sentence loop', healthyProse(500, 1) + ' The leader sends heartbeats.'.repeat(40)],
  ['code, emoji and CJK', 'fn main() {\n    let x = "héllo 😀";\n}\n'.repeat(20) + '这是测试。'.repeat(40) + '\n1. item\n2. item\n'],
  ['floods and whitespace', 'Answer.' + '!'.repeat(300) + ' '.repeat(250) + '0'.repeat(500)],
  [
    'paragraphs that return',
    ['Alpha beta gamma delta.', 'Second paragraph here, with words.', 'Third one is different again.']
      .join('\n\n')
      .concat('\n\n')
      .repeat(12),
  ],
];

function figuresOf(pieces: readonly string[], snapshotEvery = 0): string {
  const engine = new Engine(resolveThresholds());
  pieces.forEach((p, i) => {
    engine.push(p);
    if (snapshotEvery > 0 && i % snapshotEvery === 0) engine.figures();
  });
  return JSON.stringify(engine.figures());
}

describe('detector contract', () => {
  for (const [name, text] of TEXTS) {
    it(`${name}: any split ends in the same figures, snapshots change nothing`, () => {
      const whole = figuresOf([text]);
      for (const seed of [1, 2, 3]) assert.equal(figuresOf(randomSplit(text, seed, 1 + seed * 17)), whole, `split seed ${seed}`);
      assert.equal(figuresOf(randomSplit(text, 9, 7), 3), whole, 'with snapshots every third piece');
    });
  }
  it('every detector of the registry reports figures and judges them', () => {
    const engine = new Engine(resolveThresholds());
    engine.push(TEXTS[0]![1]);
    const { detectors } = engine.figures();
    assert.deepEqual(Object.keys(detectors), Object.keys(engine.detectors));
    for (const [name, f] of Object.entries(detectors)) assert.equal(typeof f, 'object', name);
  });
});
