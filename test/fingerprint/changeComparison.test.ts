import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SampleResult } from '../../src/probe/probeTypes.js';
import { AFTER_SAMPLES, BEFORE_SAMPLES, ChangeComparison, summarize } from '../../src/fingerprint/changeComparison.js';
import { sampleFigures } from '../../src/probe/sampleFigures.js';
import { sampleFiguresOf } from '../helpers/sampleFigures.js';
import { TargetFingerprints } from '../../src/fingerprint/targetFingerprints.js';
import { normalizeFingerprint } from '../../src/fingerprint/normalizeFingerprint.js';

const fig = sampleFiguresOf;

describe('sampleFigures', () => {
  const sample = (over: Partial<SampleResult>): SampleResult =>
    ({ verdict: 'ok', findings: [], onsetToken: null, ttftSeconds: 1, outputTokens: 101, durationSeconds: 3, ...over }) as SampleResult;

  test('inter-token latency from duration, TTFT and tokens; loops and stutter are loops, word salad is not', () => {
    const f = sampleFigures(sample({}));
    assert.equal(f.itlSeconds, 0.02);
    assert.equal(sampleFigures(sample({ outputTokens: 1 })).itlSeconds, null);
    assert.equal(sampleFigures(sample({ ttftSeconds: null })).itlSeconds, null);
    const find = (kind: string) => sample({ verdict: 'fail', findings: [{ kind } as SampleResult['findings'][number]] });
    assert.equal(sampleFigures(find('sentence_loop')).loop, true);
    assert.equal(sampleFigures(find('stutter')).loop, true);
    assert.equal(sampleFigures(find('word_salad')).loop, false);
    assert.equal(sampleFigures(find('word_salad')).failed, true);
    assert.equal(sampleFigures(sample({ verdict: 'error' })).errored, true);
  });

  test('conformance: the failed share of the judged checks; recall: the ratio', () => {
    const checks = [{ status: 'pass' }, { status: 'fail' }, { status: 'skipped' }, { status: 'fail' }];
    const conf = sampleFigures(sample({ outcome: { kind: 'conformance', checks } as unknown as SampleResult['outcome'] }));
    assert.equal(conf.conformanceFailed, 2 / 3);
    assert.equal(sampleFigures(sample({ outcome: { kind: 'recall', ratio: 0.75 } as SampleResult['outcome'] })).recall, 0.75);
  });

  test('golden: 1 for a right answer, 0 for a wrong one, null for an errored sample or another kind', () => {
    const golden = (correct: boolean) =>
      ({ kind: 'golden', task: 'copy', expected: 'a', answered: 'b', correct }) as SampleResult['outcome'];
    assert.equal(sampleFigures(sample({ outcome: golden(true) })).golden, 1);
    assert.equal(sampleFigures(sample({ verdict: 'warn', outcome: golden(false) })).golden, 0);
    assert.equal(sampleFigures(sample({ verdict: 'error', outcome: golden(false) })).golden, null);
    assert.equal(sampleFigures(sample({})).golden, null);
    const s = summarize([fig({ golden: 1 }), fig({ golden: 0 }), fig({ golden: 1 }), fig({ golden: 1 }), fig()]);
    assert.equal(s.goldenCorrectRatio, 0.75);
    // figures kept by a build without the field count as no golden answer
    const { golden: _left, ...older } = fig();
    assert.equal(summarize([older]).goldenCorrectRatio, null);
  });
});

describe('summarize', () => {
  test('ratios over all samples, medians over those with the figure', () => {
    const s = summarize([
      fig({ failed: true, loop: true, onsetToken: 100, itlSeconds: 0.01 }),
      fig({ failed: true, onsetToken: 300, itlSeconds: 0.03 }),
      fig({ errored: true, itlSeconds: null, ttftSeconds: null }),
      fig({ recall: 0.5 }),
    ]);
    assert.deepEqual(s, {
      samples: 4,
      failed: 2,
      errored: 1,
      failedRatio: 0.5,
      loopRatio: 0.25,
      onsetTokens: 200,
      recallRatio: 0.5,
      goldenCorrectRatio: null,
      conformanceFailedRatio: null,
      ttftSeconds: 0.5,
      itlSeconds: 0.02,
    });
    assert.equal(summarize([]).failedRatio, 0);
  });
});

describe('ChangeComparison', () => {
  test('no comparison before a change; after it, the samples before against the samples since', () => {
    const c = new ChangeComparison();
    c.record('t', 'p', [fig(), fig()]);
    assert.equal(c.comparison('t', 'p'), null);
    c.markChange('t', 1000, 'version 1 → 2');
    c.record('t', 'p', [fig({ failed: true, itlSeconds: 0.01 })]);
    const cmp = c.comparison('t', 'p');
    assert.equal(cmp?.what, 'version 1 → 2');
    assert.equal(cmp?.changedAtMs, 1000);
    assert.equal(cmp?.before.samples, 2);
    assert.equal(cmp?.before.failedRatio, 0);
    assert.equal(cmp?.after.samples, 1);
    assert.equal(cmp?.after.failedRatio, 1);
    assert.deepEqual(
      c.all().map((x) => x.probe),
      ['p'],
    );
  });

  test('bounded: the last BEFORE_SAMPLES before, the newest AFTER_SAMPLES after; a second change starts afresh', () => {
    const c = new ChangeComparison();
    for (let i = 0; i < BEFORE_SAMPLES + 30; i++) c.record('t', 'p', [fig({ failed: i < 30 })]);
    c.markChange('t', 1, 'a');
    assert.equal(c.comparison('t', 'p')?.before.samples, BEFORE_SAMPLES);
    assert.equal(c.comparison('t', 'p')?.before.failed, 0, 'the oldest (failed) samples left first');
    for (let i = 0; i < AFTER_SAMPLES + 5; i++) c.record('t', 'p', [fig()]);
    assert.equal(c.comparison('t', 'p')?.after.samples, AFTER_SAMPLES);
    c.markChange('t', 2, 'b');
    assert.equal(c.comparison('t', 'p')?.before.samples, BEFORE_SAMPLES);
    assert.equal(c.comparison('t', 'p')?.after.samples, 0);
  });

  test("a change is the target's: its pairs only, and a pair with no samples yet has nothing to compare", () => {
    const c = new ChangeComparison();
    c.record('t', 'p', [fig()]);
    c.record('t2', 'p', [fig()]);
    c.markChange('t', 1, 'x');
    c.markChange('t', 1, 'x');
    assert.notEqual(c.comparison('t', 'p'), null);
    assert.equal(c.comparison('t2', 'p'), null);
    assert.equal(c.comparison('t', 'q'), null);
    c.forget('t', 'p');
    assert.equal(c.comparison('t', 'p'), null);
  });
});

describe('TargetFingerprints', () => {
  const fp = (version: string | null, systemFingerprint = 'fp1') =>
    normalizeFingerprint({
      served: [{ model: 'm', systemFingerprint, headers: {} }],
      modelEntry: null,
      info: version ? { path: '/version', body: { version } } : null,
      unavailable: [],
    });

  test('first, same (a failed read keeps the known version), then changed with the fields', () => {
    const t = new TargetFingerprints();
    assert.equal(t.observe('a', fp('1'), 10).kind, 'first');
    const same = t.observe('a', fp(null), 20);
    assert.equal(same.kind, 'same');
    assert.equal(same.known.version, '1');
    const changed = t.observe('a', fp('2', 'fp2'), 30);
    assert.equal(changed.kind, 'changed');
    assert.deepEqual(changed.kind === 'changed' ? changed.changes.map((c) => c.field) : [], ['version', 'systemFingerprint']);
    assert.equal(t.get('a')?.changedAtMs, 30);
    t.forget('a');
    assert.equal(t.get('a'), null);
  });
});
