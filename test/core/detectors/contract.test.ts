/**
 * What every detector of the registry keeps: any split of the text ends in the same figures, a
 * snapshot mid-stream changes nothing, each threshold says why, each finding kind is declared,
 * and the registry derives Thresholds, the defaults and FINDING_KINDS from the list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DETECTORS, DEFAULT_THRESHOLDS, FINDING_KINDS, THRESHOLD_TABLE } from '../../../src/core/detectors/registry.js';
import { Engine } from '../../../src/core/engine.js';
import { randomSplit } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

const TEXTS: Array<[string, string]> = [
  ['prose then a sentence loop', `${healthyProse(500, 1)} ${'The leader sends heartbeats. '.repeat(40)}`],
  ['code, emoji and CJK', `${'fn main() {\n    let x = "héllo 😀";\n}\n'.repeat(20)}${'这是测试。'.repeat(40)}\n1. item\n2. item\n`],
  ['floods and whitespace', `Answer.${'!'.repeat(300)}${' '.repeat(250)}${'0'.repeat(500)}`],
  [
    'paragraphs that return',
    ['Alpha beta gamma delta.', 'Second paragraph here, with words.', 'Third one is different again.']
      .join('\n\n')
      .concat('\n\n')
      .repeat(12),
  ],
];

function figuresOf(pieces: readonly string[], snapshotEvery = 0): string {
  const engine = new Engine();
  pieces.forEach((p, i) => {
    engine.push(p);
    if (snapshotEvery > 0 && i % snapshotEvery === 0) {
      engine.figures();
      engine.liveFigures();
    }
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

  it('every detector reports figures, and the live check only those that can be certain', () => {
    const engine = new Engine();
    engine.push(TEXTS[0]![1]);
    assert.deepEqual(
      Object.keys(engine.figures().detectors),
      DETECTORS.map((d) => d.name),
    );
    assert.deepEqual(
      Object.keys(engine.liveFigures().detectors),
      DETECTORS.filter((d) => 'liveTokens' in d).map((d) => d.name),
    );
  });

  it('the registry derives the defaults and the finding kinds; every threshold says why', () => {
    const names = DETECTORS.flatMap((d) => Object.keys(d.thresholds));
    assert.deepEqual(Object.keys(DEFAULT_THRESHOLDS).sort(), [...names].sort());
    assert.equal(new Set(names).size, names.length, 'no threshold is declared twice');
    for (const [name, t] of Object.entries(THRESHOLD_TABLE)) {
      assert.equal(typeof t.value, 'number', name);
      assert.ok(t.why.length > 40, `${name} says why`);
    }
    assert.deepEqual([...FINDING_KINDS].sort(), [...new Set(DETECTORS.flatMap((d) => [...d.kinds]))].sort());
  });
});
