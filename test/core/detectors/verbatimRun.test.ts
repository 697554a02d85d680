import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WILD } from '../../../src/core/detectors/repetition/measureRegion.js';
import { PeriodCounts, verbatimRun } from '../../../src/core/detectors/repetition/verbatimRun.js';
import { createRng } from '../../../src/prose/random.js';

/** Tokens of a loop: a unit of `period` ids said again and again, with some tokens swapped, new, WILD or a rising counter. */
function loopIds(seed: number, n: number, period: number): Int32Array {
  const rnd = createRng(seed);
  const unit = Array.from({ length: period }, () => 1 + Math.floor(rnd() * 6));
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (i < n / 4) ids[i] = 100 + Math.floor(rnd() * 50);
    else if (r < 0.04) ids[i] = 1 + Math.floor(rnd() * 6);
    else if (r < 0.05) ids[i] = 500 + i;
    else if (r < 0.07) ids[i] = WILD;
    else ids[i] = unit[i % period]!;
  }
  return ids;
}

describe('verbatimRun: the copies of a period read from counts made once', () => {
  it('finds the same run from every end with the counts as by walking each copy', () => {
    let runs = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = createRng(seed * 7919);
      const period = 1 + Math.floor(rnd() * 12);
      const n = 200 + Math.floor(rnd() * 400);
      const ids = loopIds(seed, n, period);
      const counter = (i: number, p: number) => ids[i] === WILD && (i + p) % 3 === 0;
      const lo = Math.floor(rnd() * 20);
      for (const p of [period, period * 2, period + 1]) {
        const top = n - Math.floor(rnd() * 3);
        if (top - 2 * p < lo) continue;
        const counts = new PeriodCounts(ids, lo, top, p);
        // ends from the top down, as bestRun tries them
        for (let end = top; end >= top - 8 && end - 2 * p >= lo; end--) {
          assert.deepEqual(
            verbatimRun(ids, lo, end, p, counter, counts),
            verbatimRun(ids, lo, end, p, counter),
            `seed ${seed} p ${p} end ${end}`,
          );
          runs++;
        }
      }
    }
    assert.ok(runs > 500, `${runs} runs compared`);
  });

  it('steps over long stretches of whole copies to the same run as walking each copy', () => {
    // copies equal to the next for hundreds of tokens, then a swapped word, a new word or a WILD one: the counts step
    // over the whole copies at once and must stop where the walk would read the first copy that differs
    let runs = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = createRng(seed * 104_729);
      const period = 1 + Math.floor(rnd() * 9);
      const n = 600 + Math.floor(rnd() * 1400);
      const ids = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const r = rnd();
        ids[i] = r < 0.002 ? WILD : r < 0.004 ? 500 + i : r < 0.006 ? 1 + Math.floor(rnd() * 9) : (i % period) + 1;
      }
      const lo = Math.floor(rnd() * 30);
      for (const p of [period, 2 * period]) {
        const counts = new PeriodCounts(ids, lo, n, p);
        for (let end = n; end >= n - 8 && end - 2 * p >= lo; end--) {
          assert.deepEqual(
            verbatimRun(ids, lo, end, p, () => false, counts),
            verbatimRun(ids, lo, end, p),
            `seed ${seed} p ${p} end ${end}`,
          );
          runs++;
        }
      }
    }
    assert.ok(runs > 500, `${runs} runs compared`);
  });

  it('walks an exact loop back to its first copy', () => {
    const ids = new Int32Array(1000);
    for (let i = 0; i < 1000; i++) ids[i] = i < 100 ? 1000 + i : (i % 5) + 1;
    const counts = new PeriodCounts(ids, 0, 1000, 5);
    const run = verbatimRun(ids, 0, 1000, 5, () => false, counts);
    assert.equal(run.start, 100);
    assert.equal(run.copies, 180);
    assert.equal(run.similarity, 1);
  });

  it('stops at a copy whose WILD token comes back a period later, unless it is a counter', () => {
    const ids = new Int32Array(1000);
    for (let i = 0; i < 1000; i++) ids[i] = i < 100 ? 1000 + i : (i % 5) + 1;
    // a WILD token (a rare word, a number) in each copy from 500 on: each copy equals the next, and is new all the same
    for (let i = 500; i < 1000; i += 5) ids[i] = WILD;
    for (const counter of [() => false, (i: number) => i >= 500]) {
      const counts = new PeriodCounts(ids, 0, 1000, 5);
      for (let end = 1000; end > 992; end--)
        assert.deepEqual(verbatimRun(ids, 0, end, 5, counter, counts), verbatimRun(ids, 0, end, 5, counter));
    }
    // the run does not reach back over the WILD tokens, unless they are counters
    assert.ok(verbatimRun(ids, 0, 1000, 5, () => false, new PeriodCounts(ids, 0, 1000, 5)).start > 900);
    assert.equal(verbatimRun(ids, 0, 1000, 5, (i) => i >= 500, new PeriodCounts(ids, 0, 1000, 5)).start, 100);
  });
});
