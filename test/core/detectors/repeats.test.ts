import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_PERIOD, measureStretch, WILD } from '../../../src/core/detectors/repetition/measureRegion.js';
import { findRegions } from '../../../src/core/detectors/repetition/repeats.js';
import { templateIds } from '../../../src/core/detectors/repetition/templateIds.js';
import { isWordRegion, wordShare } from '../../../src/core/detectors/repetition/wordRegion.js';
import { Tokenizer } from '../../../src/core/text/tokenizer.js';
import { createRng } from '../../../src/prose/random.js';
import { healthyProse } from '../../helpers/texts.js';

const GAP = 4;
const MIN_TOKENS = 4;

/** The periodic stretches read from the lags token by token, as a second pass over them would (the reference). */
function stretchesOf(lag: Int32Array, lo: number, hi: number): number[] {
  const out: number[] = [];
  let from = -1;
  let period = 0;
  let lastHit = -1;
  for (let i = lo; i < hi; i++) {
    const raw = lag[i - lo]!;
    const l = raw > MAX_PERIOD ? 0 : raw;
    if (from >= 0 && l > 0 && Math.abs(l - period) <= 2) {
      lastHit = i;
      continue;
    }
    if (from >= 0 && (i - lastHit > GAP || l > 0)) {
      if (lastHit + 1 - from >= MIN_TOKENS) out.push(from, lastHit + 1);
      from = -1;
    }
    if (from < 0 && l > 0) {
      from = i;
      period = l;
      lastHit = i;
    }
  }
  if (from >= 0 && (lastHit + 1 - from >= MIN_TOKENS || hi - lastHit <= GAP)) out.push(from, lastHit + 1);
  return out;
}

/** Tokens of loops, lists, quotes far back and new words, with WILD tokens among them. */
function mixedIds(seed: number, n: number): Int32Array {
  const rnd = createRng(seed);
  const ids = new Int32Array(n);
  let i = 0;
  while (i < n) {
    const kind = rnd();
    const len = 5 + Math.floor(rnd() * 200);
    const period = 1 + Math.floor(rnd() * 12);
    const unit = Array.from({ length: period }, () => 1 + Math.floor(rnd() * 30));
    for (let k = 0; k < len && i < n; k++, i++) {
      const r = rnd();
      if (kind < 0.3) ids[i] = 1000 + i;
      else if (kind < 0.4 && i > 3000) ids[i] = ids[i - 2500 - (k % 3)]!;
      else ids[i] = r < 0.05 ? WILD : r < 0.1 ? 1 + Math.floor(rnd() * 30) : unit[k % period]!;
    }
  }
  return ids;
}

describe('findRegions: the periodic stretches found in the pass that finds the lags', () => {
  it('finds the stretches a second pass over the lags finds', () => {
    let stretches = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = createRng(seed * 31);
      const n = 50 + Math.floor(rnd() * 6000);
      const ids = mixedIds(seed, n);
      const lo = Math.floor(rnd() * 40);
      const r = findRegions(ids, lo, n);
      const found = Array.from(r.bounds.subarray(0, 2 * r.stretches));
      assert.deepEqual(found, stretchesOf(r.lag, lo, n), `seed ${seed}`);
      stretches += r.stretches;
    }
    assert.ok(stretches > 200, `${stretches} stretches compared`);
  });

  it('counts the words with letters and code marks of a region as isWordRegion reads them', () => {
    const code = 'if (a[0] === b) { return f(a, 12); }\nconst x = { y: [1, 2], z: a < b };\n';
    let regions = 0;
    for (const [k, text] of [healthyProse(600, 4), code.repeat(20), `${healthyProse(300, 8)}\n${code.repeat(6)}`].entries()) {
      const tk = new Tokenizer();
      tk.push(text);
      tk.snapshot(() => {
        const t = tk.tokens;
        const counts = new Int32Array(tk.idCount);
        for (let i = 0; i < t.n; i++) counts[t.id[i]!]!++;
        const rnd = createRng(k + 5);
        for (const ids of [t.id, templateIds(t, counts, 2)]) {
          const { lag } = findRegions(ids, 0, t.n, t.info);
          for (let q = 0; q < 60; q++) {
            const from = Math.floor(rnd() * t.n);
            const to = Math.min(t.n, from + 1 + Math.floor(rnd() * 400));
            const r = measureStretch(ids, lag, 0, from, to, t.info);
            assert.equal(wordShare(r.letterWords, r.codeMarks, to - from), isWordRegion(t, from, to), `text ${k} [${from}, ${to})`);
            regions++;
          }
        }
      });
    }
    assert.ok(regions >= 360);
  });
});
