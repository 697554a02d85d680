import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

describe('n-gram detector (figures only)', () => {
  it('a loop approaches 1, prose stays low', () => {
    const loop = detect('ngrams', 'we go on and on '.repeat(200)).figures;
    const prose = detect('ngrams', healthyProse(1500, 6)).figures;
    assert.ok(loop.dup[5]! > 0.9, `loop dup10 ${loop.dup[5]}`);
    assert.ok(prose.dup[5]! < 0.1, `prose dup10 ${prose.dup[5]}`);
    assert.ok(prose.top[0]! < 0.1, `prose top2 ${prose.top[0]}`);
  });
  it('judges nothing', () => assert.deepEqual(detect('ngrams', 'a b a b a b a b').findings, []));
});
