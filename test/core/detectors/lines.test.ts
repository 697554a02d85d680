import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../helpers/detectorHarness.js';

describe('lines detector (figures only)', () => {
  it('counts duplicate-line chars and the most repeated line; judges nothing', () => {
    const { figures, findings } = detect('lines', 'alpha\nbeta\nalpha\n\n  alpha  \ngamma');
    assert.equal(figures.topLineCount, 3);
    assert.equal(figures.topLine, 'alpha');
    assert.equal(figures.lineChars, 5 + 4 + 5 + 5 + 5);
    assert.equal(figures.dupLineChars, 15);
    assert.deepEqual(findings, []);
  });
  it('the last line counts without a newline after it', () => assert.equal(detect('lines', 'x\nx').figures.topLineCount, 2));
});
