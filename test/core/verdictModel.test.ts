/** Scoring with the learned verdict's model, and the checks its loader makes. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FEATURE_NAMES } from '../../src/core/verdictFeatures.js';
import { loadVerdictModel, scoreOf, type VerdictModel } from '../../src/core/verdictModel.js';
import { repoRoot } from '../helpers/repoRoot.js';

function model(over: Partial<VerdictModel> = {}): VerdictModel {
  return {
    version: 1,
    features: ['a', 'b', 'c'],
    means: [1, 0, 2],
    scales: [2, 1, 0.5],
    weights: [1, -2, 0.5],
    bias: -0.5,
    threshold: 0.9,
    warnAbove: 0.6,
    hardKinds: ['special_tokens'],
    trainingSha256: 'a'.repeat(64),
    training: { lambda: 1 },
    cv: [],
    ...over,
  };
}

describe('scoreOf', () => {
  it('is the logistic of the bias plus the weighted standardised features (hand computed)', () => {
    // a: 1·(3-1)/2 = 1; b: -2·(0.5-0)/1 = -1; c: 0.5·(3-2)/0.5 = 1; z = -0.5 + 1 - 1 + 1 = 0.5
    const s = scoreOf([3, 0.5, 3], model());
    assert.ok(Math.abs(s.probability - 1 / (1 + Math.exp(-0.5))) < 1e-12);
    assert.deepEqual(s.contributions, [
      ['a', 1],
      ['b', -1],
      ['c', 1],
    ]);
  });

  it('lists at most five contributions, the largest first, zeros left out', () => {
    const n = 8;
    const m = model({
      features: Array.from({ length: n }, (_, i) => `f${i}`),
      means: new Array(n).fill(0),
      scales: new Array(n).fill(1),
      weights: Array.from({ length: n }, (_, i) => i),
    });
    const s = scoreOf(new Array(n).fill(1), m);
    assert.deepEqual(
      s.contributions.map(([f]) => f),
      ['f7', 'f6', 'f5', 'f4', 'f3'],
    );
    assert.equal(scoreOf(new Array(n).fill(0), m).contributions.length, 0);
  });

  it('lists the same five as sorting every contribution would, ties by index, for many small models', () => {
    let seed = 7;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    // small integer weights and values: many ties, zeros and sign changes
    for (let t = 0; t < 2000; t++) {
      const n = 1 + Math.floor(rand() * 30);
      const pick = () => Math.floor(rand() * 5) - 2;
      const m = model({
        features: Array.from({ length: n }, (_, i) => `f${i}`),
        means: new Array(n).fill(0),
        scales: new Array(n).fill(1),
        weights: Array.from({ length: n }, pick),
      });
      const x = Array.from({ length: n }, pick);
      const all = m.weights.map((w, i) => [i, w * x[i]!] as [number, number]).filter(([, c]) => c !== 0);
      all.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]) || a[0] - b[0]);
      const expected = all.slice(0, 5).map(([i, c]) => [`f${i}`, c]);
      assert.deepEqual(scoreOf(x, m).contributions, expected, `model ${t}`);
    }
  });

  it('refuses features of another length', () => {
    assert.throws(() => scoreOf([1, 2], model()), /2 features given, the model has 3/);
  });
});

describe('loadVerdictModel', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['not an object', [], /must hold a JSON object/],
    ['version', { ...model(), version: 2 }, /version must be 1/],
    ['means length', { ...model(), means: [1, 2] }, /means has 2 entries, features has 3/],
    ['weight not a number', { ...model(), weights: [1, 'x', 2] }, /weights\[1\] is "x"/],
    ['zero scale', { ...model(), scales: [1, 0, 1] }, /scales\[1\] must be above 0/],
    ['threshold', { ...model(), threshold: 1.5 }, /threshold must be a probability/],
    ['warn above threshold', { ...model(), warnAbove: 0.95 }, /warnAbove \(0.95\) must not be above threshold/],
    ['hash', { ...model(), trainingSha256: 'xyz' }, /trainingSha256 must be 64 hex digits/],
  ];
  for (const [what, json, message] of bad) it(`names what is wrong: ${what}`, () => assert.throws(() => loadVerdictModel(json), message));

  it('refuses a model fitted on other features', () => {
    assert.throws(() => loadVerdictModel(model(), ['a', 'x', 'c']), /feature 1 is b, this analyzer computes x there/);
    assert.throws(() => loadVerdictModel(model(), ['a']), /has 3 features, this analyzer computes 1/);
  });

  it('loads the committed model, fitted on this analyzer’s features', () => {
    const json = JSON.parse(readFileSync(join(repoRoot(), 'src', 'core', 'verdictModel.json'), 'utf8'));
    const m = loadVerdictModel(json, FEATURE_NAMES);
    assert.ok(m.threshold > m.warnAbove);
    assert.ok(m.hardKinds.includes('special_tokens'));
    assert.ok(m.cv.length > 0);
  });
});
