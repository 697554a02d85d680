import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';

describe('word runs detector', () => {
  const cases: Array<[string, string, string[], number]> = [
    ['16 in a row fail', 'It was ' + 'very '.repeat(16) + 'good.', ['word_loop/fail'], 16],
    ['8 in a row warn as stutter', 'It was ' + 'very '.repeat(8) + 'good.', ['stutter/warn'], 8],
    ['a song\'s "na na na" (7) says nothing', 'Hey ' + 'na '.repeat(7) + 'hey.', [], 7],
    ['a word ending one line and starting the next is no run', 'stop\nstop\nstop\nstop\nstop\nstop\nstop\nstop\nstop', [], 1],
    ['case does not matter', 'The THE the The tHe THE the the the the the the the the the the.', ['word_loop/fail'], 16],
  ];
  for (const [name, text, want, longest] of cases) {
    it(name, () => {
      const { figures, findings } = detect('wordRuns', text);
      assert.deepEqual(verdicts(findings), want);
      assert.equal(figures.longest, longest);
    });
  }
  it('reports the word and where its run starts', () => {
    const { figures, findings } = detect('wordRuns', 'Now ' + 'Again '.repeat(20));
    assert.equal(figures.word, 'again');
    assert.equal(findings[0]!.atChar, 4);
  });
});
