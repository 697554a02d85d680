import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { formatReport } from '../../src/core/formatReport.js';
import { ngramFractions } from '../../src/core/ngramFractions.js';
import { TokenBuffer } from '../../src/core/text/tokens.js';
import { TextStore } from '../../src/core/textStore.js';
import { WordTable } from '../../src/core/wordTable.js';

describe('TextStore', () => {
  it('slices across many appended pieces like one string', () => {
    const store = new TextStore();
    let whole = '';
    for (let i = 0; i < 500; i++) {
      const piece = `p${i}-` + 'x'.repeat(i % 7);
      store.append(piece);
      whole += piece;
    }
    assert.equal(store.size, whole.length);
    for (const [a, b] of [
      [0, 10],
      [5, 900],
      [123, 124],
      [whole.length - 50, whole.length],
      [0, whole.length],
      [700, 700],
    ] as const) {
      assert.equal(store.slice(a, b), whole.slice(a, b), `[${a}, ${b})`);
    }
  });
});

describe('WordTable', () => {
  it('keeps ids through growth and tells words of the same hash apart by length', () => {
    const t = new WordTable();
    for (let i = 0; i < 20_000; i++) t.set(Math.imul(i, 0x9e3779b1), 3 + (i % 5), i);
    for (let i = 0; i < 20_000; i += 97) assert.equal(t.get(Math.imul(i, 0x9e3779b1), 3 + (i % 5)), i);
    assert.equal(t.get(Math.imul(5, 0x9e3779b1), 99), -1);
    assert.equal(t.get(12345, 4), -1);
  });

  it('gives the same answers whatever length it was sized for', () => {
    for (const expected of [0, 200, 50_000, 10_000_000]) {
      const t = new WordTable(expected);
      for (let i = 0; i < 3000; i++) t.set(Math.imul(i, 0x9e3779b1), 1 + (i % 3), i);
      for (let i = 0; i < 3000; i++) assert.equal(t.get(Math.imul(i, 0x9e3779b1), 1 + (i % 3)), i, `sized for ${expected}: word ${i}`);
      assert.equal(t.get(Math.imul(7, 0x9e3779b1), 9), -1);
    }
  });
});

describe('TokenBuffer', () => {
  it('keeps every column through growth', () => {
    const b = new TokenBuffer(1);
    for (let i = 0; i < 1000; i++) b.push(i, i + 1, 7 * i, -1 - i);
    assert.equal(b.n, 1000);
    for (let i = 0; i < 1000; i++) assert.deepEqual([b.start[i], b.end[i], b.id[i], b.info[i]], [i, i + 1, 7 * i, -1 - i], `token ${i}`);
  });
});

describe('ngramFractions', () => {
  const words = (ids: number[]): [Int32Array, Int32Array, number] => [Int32Array.from(ids), Int32Array.from(ids.map(() => 4)), ids.length];

  it('is 0 for distinct words and near 1 for one word repeated', () => {
    const distinct = ngramFractions(...words(Array.from({ length: 50 }, (_, i) => i)));
    assert.deepEqual(distinct.top, [0, 0, 0]);
    assert.deepEqual(distinct.dup, [0, 0, 0, 0, 0, 0]);
    const same = ngramFractions(...words(Array.from({ length: 100 }, () => 7)));
    assert.ok(same.top[0]! > 0.95, String(same.top[0]));
    assert.ok(same.dup[5]! > 0.85, String(same.dup[5]));
  });

  it('counts the most frequent bigram and duplicated 5-grams by chars', () => {
    // a b a b c d e f g h: bigram "a b" twice = 4 words of 4 chars out of 10 words
    const f = ngramFractions(...words([1, 2, 1, 2, 3, 4, 5, 6, 7, 8]));
    assert.equal(f.top[0], 0.4);
    // 1 2 3 4 5 x 1 2 3 4 5: the second "1 2 3 4 5" is a duplicate 5-gram (5 of 11 words)
    const g = ngramFractions(...words([1, 2, 3, 4, 5, 9, 1, 2, 3, 4, 5]));
    assert.equal(g.dup[0], 5 / 11);
  });

  it('tells apart two 10-grams whose hashes meet', () => {
    // two 10-grams of different words that hash alike (found by a birthday search): neither is said again
    const a = [693, 453, 447, 482, 812, 315, 136, 348, 698, 888];
    const b = [718, 949, 963, 606, 415, 463, 377, 299, 645, 751];
    for (const wanted of ['all', 'reported'] as const) assert.equal(ngramFractions(...words([...a, ...b]), wanted).dup[5], 0, wanted);
    assert.deepEqual(ngramFractions(...words([...a, ...b])), { top: [0, 0, 0], dup: [0, 0, 0, 0, 0, 0] });
    // said again, it is counted
    for (const wanted of ['all', 'reported'] as const)
      assert.equal(ngramFractions(...words([...a, ...b, ...a]), wanted).dup[5], 1 / 3, wanted);
  });

  it('counts as a plain map of n-grams does, whatever the number of words and the calls before', () => {
    // the table is sized by the words and reused from call to call: a long call, then short ones, then long again
    const reference = (ids: number[], lens: number[]) => {
      const total = lens.reduce((a, b) => a + b, 0);
      const chars = (i: number, n: number) => lens.slice(i, i + n).reduce((a, b) => a + b, 0);
      const top = [2, 3, 4].map((n) => {
        const counts = new Map<string, number>();
        let best = 0;
        let bestAt = -1;
        for (let i = 0; i + n <= ids.length; i++) {
          const k = ids.slice(i, i + n).join(' ');
          const c = (counts.get(k) ?? 0) + 1;
          counts.set(k, c);
          if (c > best) [best, bestAt] = [c, i];
        }
        return bestAt < 0 || best < 2 ? 0 : Math.min(1, (best * chars(bestAt, n)) / total);
      });
      const dup = [5, 6, 7, 8, 9, 10].map((n) => {
        const seen = new Set<string>();
        let d = 0;
        for (let i = 0; i + n <= ids.length; ) {
          const k = ids.slice(i, i + n).join(' ');
          if (seen.has(k)) {
            d += chars(i, n);
            i += n;
          } else {
            seen.add(k);
            i++;
          }
        }
        return d / total;
      });
      return { top, dup };
    };
    let seed = 7;
    const next = (m: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % m;
    };
    for (const count of [2048, 1, 5, 8, 9, 16, 17, 300, 1025, 2048, 12]) {
      for (const vocab of [2, 5, 40, 5000]) {
        const ids = Array.from({ length: count }, () => next(vocab));
        const lens = ids.map(() => 1 + next(9));
        const f = ngramFractions(Int32Array.from(ids), Int32Array.from(lens), count);
        const want = reference(ids, lens);
        assert.deepEqual(f, want, `${count} words of ${vocab}`);
        // only the two an analysis reports: the same values, the others not computed
        const r = ngramFractions(Int32Array.from(ids), Int32Array.from(lens), count, 'reported');
        assert.deepEqual(
          r,
          { top: [want.top[0], NaN, NaN], dup: [NaN, NaN, NaN, NaN, NaN, want.dup[5]] },
          `${count} words of ${vocab}, reported`,
        );
      }
    }
  });
});

describe('formatReport', () => {
  it('shows the verdict, every reason, where the collapse starts and the figures', () => {
    const prose = 'Healthy prose about leader election comes first, with enough different words to read as text. ';
    const a = analyzeText(prose.repeat(1) + 'Then it loops on this very sentence forever. '.repeat(40));
    const out = formatReport(a, { title: 'content' });
    assert.match(out, /^content: verdict FAIL\n/);
    for (const r of a.reasons) assert.ok(out.includes(r), r);
    assert.match(out, /collapse \(sentence_loop\) starts at char \d+/);
    assert.match(out, /gzip ratio \(lower = more repetitive\) +0\.\d+/);
    assert.match(out, /unit: "Then it loops on this very sentence forever\. "/);
  });

  it('agrees with itself: a reported loop counts in the coverage, a shown repeat that is no finding says why', () => {
    const prose = 'Healthy prose about leader election comes first, with enough different words to read as text. ';
    const reported = analyzeText(prose + 'I think. '.repeat(16));
    assert.equal(reported.verdict, 'fail');
    assert.ok(reported.metrics.repeatCoverage > 0, `coverage ${reported.metrics.repeatCoverage}`);
    const small = analyzeText(
      prose + 'Yes, yes. '.repeat(3) + 'Then the answer goes on with a sentence of its own, about something else entirely.',
    );
    const out = formatReport(small);
    assert.match(out, /verdict OK/);
    assert.equal(small.metrics.repeatCount, 3);
    assert.match(out, /not counted: /);
    const loop = formatReport(reported);
    assert.match(loop, /at char \d+: "/, 'each finding shows where it starts and an excerpt');
  });

  it('says so when nothing is wrong', () => {
    assert.match(formatReport(analyzeText('A short and perfectly ordinary sentence.')), /verdict OK\n {2}no degeneration found/);
  });
});
