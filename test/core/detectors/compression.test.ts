import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

describe('compression detector', () => {
  it('a near-total collapse fails on the whole-text ratio', () => {
    const { figures, findings } = detect('compression', 'abc '.repeat(50_000));
    assert.ok(figures.ratio < 0.02, `ratio ${figures.ratio}`);
    assert.ok(verdicts(findings).includes('low_compression/fail'));
  });
  it('one very compressible 4 KB window among prose warns', () => {
    const text = healthyProse(3000, 2) + ' ' + 'ok '.repeat(2000) + healthyProse(3000, 3);
    assert.ok(verdicts(detect('compression', text).findings).includes('low_compression/warn'));
  });
  it('prose says nothing', () => assert.deepEqual(verdicts(detect('compression', healthyProse(3000, 2)).findings), []));
});
