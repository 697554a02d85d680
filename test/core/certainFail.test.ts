import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStreamAnalyzer, isCertainFail } from '../../src/core/streamAnalyzer.js';
import { freshCorpus, holdoutCorpus, tuningCorpus } from '../corpus/generate.js';
import { readTexts } from '../corpus/paths.js';

// The daemon closes a stream on the first certain fail, so a healthy text must never be
// certain at any point of its stream, and most collapses should be certain before the end.
const STEP = 120; // chars between two looks, about what the daemon sees every 32 tokens

test('no healthy corpus text is ever a certain fail mid-stream', () => {
  let snapshots = 0;
  for (const set of ['healthy', 'holdout', 'fresh'] as const) {
    for (const { name, text } of readTexts(set)) {
      const a = createStreamAnalyzer();
      for (let i = 0; i < text.length; i += STEP) {
        a.push(text.slice(i, i + STEP));
        snapshots++;
        assert.equal(isCertainFail(a.snapshot()), false, `${set}/${name} certain at char ${i}`);
        assert.equal(a.certainCollapse(), null, `${set}/${name} certain (abort check) at char ${i}`);
      }
    }
  }
  assert.ok(snapshots > 1000);
});

test('most collapses are certain before the text ends, soon after their onset', () => {
  const delays: number[] = [];
  let degenerate = 0;
  for (const s of [...tuningCorpus(), ...holdoutCorpus(), ...freshCorpus()]) {
    if (s.label !== 'degenerate' || s.onset < 0) continue;
    degenerate++;
    const a = createStreamAnalyzer();
    for (let i = 0; i < s.text.length; i += STEP) {
      a.push(s.text.slice(i, i + STEP));
      if (i + STEP <= s.onset) continue;
      const full = isCertainFail(a.snapshot());
      // the cheap abort check says what the full analysis says
      assert.equal(a.certainCollapse() !== null, full, `${s.name} at char ${i}`);
      if (full) {
        delays.push(i + STEP - s.onset);
        break;
      }
    }
  }
  delays.sort((x, y) => x - y);
  const share = delays.length / degenerate;
  const median = delays[delays.length >> 1]!;
  assert.ok(share >= 0.8, `only ${(share * 100).toFixed(1)}% of ${degenerate} collapses became certain`);
  assert.ok(median <= 1200, `median delay after the onset ${median} chars`);
});
