/**
 * Collapses written by test/corpus/generate.ts (loops, near loops, stutter, floods, tag spam,
 * salad, glued words, gibberish, script switches) grafted onto the real healthy outputs of both
 * development corpora (read by path, never copied), and those outputs mixed as healthy long
 * texts. Real prefixes hold what the written healthy texts of test/corpus hold less of: fenced
 * code left open where the collapse starts, Korean and Japanese, tables. Two seeds, 336
 * collapses and 406 healthy texts. Before what fenced blocks hold was read apart, 95.5% of the
 * collapses failed (321 of 336: salad, noise and other scripts inside a code block passed); the
 * gate holds what the detector reaches (332 of 336, 98.8%, measured), so it fails on a regression. Skipped
 * with a message when a corpus is absent, except under CI.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeText } from '../../src/core/analyzeText.js';
import { buildCorpus, DEGENERATE_KINDS } from '../corpus/generate.js';
import { loadRealCorpus, realCorpusDirs } from '../corpus/realCorpus.js';

const RECALL_MIN = 0.985;
const FALSE_FAIL_MAX = 0.01;
const SEEDS = [7, 11];

const dirs = realCorpusDirs();
const loaded = dirs.map((dir) => ({ dir, samples: loadRealCorpus(dir) }));
const missing = loaded.filter((l) => !l.samples).map((l) => l.dir);

describe('collapses grafted onto the real healthy outputs', () => {
  if (missing.length > 0) {
    const absent = `real corpus not found at ${missing.join(' and ')}`;
    if (process.env['CI']) it('has its corpora under CI', () => assert.fail(absent));
    else it('is skipped', { skip: absent }, () => {});
    return;
  }
  const healthy = loaded.flatMap((l) =>
    (l.samples ?? []).filter((s) => s.label === 'ok').map((s) => ({ name: `${l.dir.split('/').pop()}/${s.name}`, text: s.text })),
  );
  const samples = SEEDS.flatMap((seed) => buildCorpus(healthy, { seed, healthyMixes: 60, perKind: 12, empties: 0 }));
  const judged = samples.map((s) => ({ s, a: analyzeText(s.text) }));
  const degenerate = judged.filter((j) => j.s.label === 'degenerate');
  const ok = judged.filter((j) => j.s.label === 'healthy');
  const misses = degenerate.filter((j) => j.a.verdict !== 'fail');
  const falseFails = ok.filter((j) => j.a.verdict === 'fail');
  const recall = 1 - misses.length / degenerate.length;
  console.log(
    `grafted: ${degenerate.length - misses.length}/${degenerate.length} collapses fail (${(100 * recall).toFixed(1)}%), ${falseFails.length}/${ok.length} healthy texts fail`,
  );

  it(`fails at least ${100 * RECALL_MIN}% of the collapses`, () => {
    assert.ok(
      recall >= RECALL_MIN,
      `${misses.length} of ${degenerate.length} pass: ${misses
        .slice(0, 12)
        .map((j) => `${j.s.name.slice(0, 60)} (${j.a.verdict})`)
        .join('; ')}`,
    );
  });
  it(`fails at most ${100 * FALSE_FAIL_MAX}% of the healthy texts`, () => {
    assert.ok(
      falseFails.length / ok.length <= FALSE_FAIL_MAX,
      falseFails.map((j) => `${j.s.name.slice(0, 60)}: ${j.a.reasons[0]}`).join('; '),
    );
  });
  it('judges both seeds on the same number of texts', () =>
    assert.equal(samples.length, SEEDS.length * (60 + 12 * DEGENERATE_KINDS.length + healthy.length)));
});
