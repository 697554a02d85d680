import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect, verdicts } from '../../helpers/detectorHarness.js';
import { healthyProse } from '../../helpers/texts.js';

/** A near-loop that never repeats verbatim: the same dozen words, shuffled per sentence. */
function cycling(words: number, seed: number): string {
  const vocab = ['the', 'model', 'keeps', 'saying', 'that', 'we', 'should', 'check', 'it', 'again', 'now', 'please'];
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(vocab[x % vocab.length]!);
  }
  return out.join(' ') + '.';
}

describe('low-diversity detector', () => {
  it('a small vocabulary cycling to the end fails', () => {
    const { findings, figures } = detect('lowDiversity', healthyProse(400, 2) + ' ' + cycling(400, 7));
    assert.deepEqual(verdicts(findings), ['near_loop/fail'], 'never certain: test lists cycle through few words too');
    assert.ok(figures.distinct <= 12, `distinct ${figures.distinct}`);
  });
  it('to the end of an output the model ended itself (finish_reason stop) it only warns', () => {
    assert.deepEqual(verdicts(detect('lowDiversity', healthyProse(400, 2) + ' ' + cycling(400, 7), { finishReason: 'stop' }).findings), [
      'near_loop/warn',
    ]);
  });
  it('a stretch of small vocabulary the text moves on from says nothing, unless it ran away', () => {
    assert.deepEqual(
      verdicts(detect('lowDiversity', healthyProse(300, 2) + ' ' + cycling(200, 7) + ' ' + healthyProse(300, 5)).findings),
      [],
    );
    const runaway = healthyProse(300, 2) + ' ' + cycling(500, 7) + ' ' + healthyProse(300, 5);
    assert.deepEqual(verdicts(detect('lowDiversity', runaway).findings), ['near_loop/fail']);
    assert.deepEqual(
      verdicts(detect('lowDiversity', runaway, { finishReason: 'stop' }).findings),
      [],
      'left behind in an output the model ended itself',
    );
  });
  it('numbers do not count, so data columns are not a near-loop', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `row ${i} ${i * 7} ${i * 13}`).join('\n');
    assert.deepEqual(verdicts(detect('lowDiversity', rows).findings), []);
  });
  it('healthy prose says nothing', () => assert.deepEqual(verdicts(detect('lowDiversity', healthyProse(2000, 4)).findings), []));
});
