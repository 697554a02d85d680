import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeText } from '../../src/core/analyzeText.js';
import { placeTokens } from '../../src/probe/placeTokens.js';
import { healthyProse } from '../helpers/texts.js';

test('placeTokens maps every char offset of an analysis to a token, leaving -1 alone', () => {
  const text = `${healthyProse(1500, 5)} ${'Again and again the same sentence. '.repeat(40)}`;
  const a = analyzeText(text);
  assert.equal(a.verdict, 'fail');
  assert.equal(a.metrics.collapseOnsetToken, -1, 'no token offsets given: -1');
  const placed = placeTokens(a, (c) => Math.floor(c / 5));
  assert.equal(placed.metrics.collapseOnsetToken, Math.floor(a.metrics.collapseOnset / 5));
  assert.equal(placed.metrics.repeatOnsetToken, Math.floor(a.metrics.repeatOnset / 5));
  for (const [i, f] of placed.findings.entries())
    assert.equal(f.atToken, f.atChar >= 0 ? Math.floor(f.atChar / 5) : -1, a.findings[i]!.kind);
  assert.equal(a.metrics.repeatOnsetToken, -1, 'the analysis given is not changed');

  const ok = placeTokens(analyzeText(healthyProse(800, 2)), () => 99);
  assert.equal(ok.metrics.collapseOnsetToken, -1);
  assert.equal(ok.metrics.repeatOnsetToken, -1);
});
