import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Baseline, PairFigures } from '../../src/baseline/baselineFormat.js';
import { compareBaselines, failedShare, type FigureRow } from '../../src/baseline/compareBaselines.js';
import { comparisonTable } from '../../src/baseline/comparisonTable.js';
import { DEFAULT_TOLERANCES, type Tolerances } from '../../src/baseline/tolerances.js';

const settings = {
  kind: 'generation',
  maxTokens: 100,
  temperature: 0,
  temperatures: null,
  samples: 2,
  minTokens: 0,
  seed: 1,
  messages: 'm',
  extraBody: 'e',
  thresholds: 't',
  kindSettings: 'k',
};

function pair(over: Partial<PairFigures> = {}): PairFigures {
  return {
    target: 'a',
    probe: 'long',
    settings,
    verdicts: ['ok', 'ok'],
    onsetToken: null,
    recall: null,
    conformance: null,
    latency: { ttftSeconds: 0.1, itlSeconds: 0.01, tokensPerSecond: 100 },
    outputs: [],
    ...over,
  };
}

function baseline(p: PairFigures, fingerprint: Record<string, string | null> = { model: 'm' }): Baseline {
  return {
    format: 'coherency-baseline',
    formatVersion: 1,
    tool: { name: 'coherency-exporter', version: '0.1.0' },
    createdAt: '2026-01-01T00:00:00.000Z',
    fingerprints: { a: fingerprint },
    pairs: [p],
  };
}

const compare = (
  before: Partial<PairFigures>,
  after: Partial<PairFigures>,
  t: Partial<Tolerances> = {},
  failOn: 'warn' | 'fail' = 'fail',
) => compareBaselines(baseline(pair(before)), baseline(pair(after)), { ...DEFAULT_TOLERANCES, ...t }, failOn);
const row = (rows: FigureRow[], figure: FigureRow['figure']) => rows.find((r) => r.figure === figure);

describe('compareBaselines', () => {
  it('the same figures pass, every row unchanged', () => {
    const c = compare({}, {});
    assert.equal(c.regressed, false);
    assert.equal(c.errorsRose, false);
    assert.deepEqual(
      c.rows.map((r) => r.figure),
      ['verdicts', 'failed share', 'TTFT', 'inter-token latency', 'tokens/s'],
    );
    assert.ok(c.rows.every((r) => !r.regressed));
  });

  it('a failed share that rises beyond --max-failed-rise regresses', () => {
    const c = compare({}, { verdicts: ['ok', 'fail'] });
    assert.equal(c.regressed, true);
    const r = row(c.rows, 'failed share')!;
    assert.deepEqual([r.before, r.after, r.change, r.beforeValue, r.afterValue], ['0%', '50%', '+50 pts', 0, 0.5]);
    assert.match(r.why!, /--max-failed-rise 0/);
    assert.equal(compare({}, { verdicts: ['ok', 'fail'] }, { failedRise: 0.5 }).regressed, false);
    // a failure the baseline had too is no regression
    assert.equal(compare({ verdicts: ['fail', 'ok'] }, { verdicts: ['ok', 'fail'] }).regressed, false);
  });

  it('warnings count as failures with --fail-on warn; errors count in neither share', () => {
    assert.equal(compare({}, { verdicts: ['ok', 'warn'] }).regressed, false);
    assert.equal(compare({}, { verdicts: ['ok', 'warn'] }, {}, 'warn').regressed, true);
    assert.equal(failedShare(['error', 'fail'], 'fail'), 1);
    assert.equal(failedShare(['error'], 'fail'), null);
    const c = compare({}, { verdicts: ['ok', 'error'] });
    assert.equal(c.regressed, false);
    assert.equal(c.errorsRose, true);
  });

  it('an onset earlier beyond --max-onset-drop regresses; a new onset is shown', () => {
    const earlier = compare({ verdicts: ['fail', 'ok'], onsetToken: 4000 }, { verdicts: ['fail', 'ok'], onsetToken: 2000 });
    assert.equal(earlier.regressed, true);
    assert.match(row(earlier.rows, 'collapse onset')!.why!, /50% earlier than 4000 > --max-onset-drop 0.25/);
    assert.equal(compare({ verdicts: ['fail', 'ok'], onsetToken: 4000 }, { verdicts: ['fail', 'ok'], onsetToken: 3100 }).regressed, false);
    const fresh = compare({}, { onsetToken: 300 });
    assert.equal(row(fresh.rows, 'collapse onset')!.change, 'new');
  });

  it('recall that drops beyond --max-recall-drop regresses', () => {
    const c = compare({ recall: 1 }, { recall: 0.8 });
    assert.equal(c.regressed, true);
    assert.equal(row(c.rows, 'recall')!.change, '−20 pts');
    assert.equal(compare({ recall: 1 }, { recall: 0.8 }, { recallDrop: 0.2 }).regressed, false);
    assert.equal(compare({ recall: 0.8 }, { recall: 1 }).regressed, false);
  });

  it('a conformance check that fails now, and did not, regresses; one fixed does not', () => {
    const broke = compare({ conformance: { chat: 'pass', streaming: 'pass' } }, { conformance: { chat: 'pass', streaming: 'fail' } });
    assert.equal(broke.regressed, true);
    const r = row(broke.rows, 'conformance')!;
    assert.deepEqual([r.before, r.after, r.change], ['2 pass', '1 pass, 1 fail', 'streaming fails']);
    const fixed = compare({ conformance: { streaming: 'fail' } }, { conformance: { streaming: 'pass' } });
    assert.equal(fixed.regressed, false);
    assert.equal(row(fixed.rows, 'conformance')!.change, 'streaming fixed');
  });

  it('latency is reported, and fails only with its tolerance', () => {
    const slower = { latency: { ttftSeconds: 0.3, itlSeconds: 0.03, tokensPerSecond: 33 } };
    const c = compare({}, slower);
    assert.equal(c.regressed, false);
    assert.equal(row(c.rows, 'TTFT')!.change, '+200%');
    assert.equal(row(c.rows, 'inter-token latency')!.before, '10.0 ms');
    assert.equal(compare({}, slower, { ttftRise: 1 }).regressed, true);
    assert.equal(compare({}, slower, { ttftRise: 2.5 }).regressed, false);
    assert.equal(compare({}, slower, { itlRise: 0.5 }).regressed, true);
    // faster is never worse
    assert.equal(compare(slower, {}, { ttftRise: 0, itlRise: 0 }).regressed, false);
  });

  it('outputs at temperature 0: a departure is reported, and fails only with --fail-on-divergence', () => {
    const o = (tokens: string[]) => ({ sample: 0, temperature: 0, seed: 1, tokens, totalTokens: tokens.length, truncated: false });
    const before = { outputs: [o(['a', ' b', ' c'])] };
    const after = { outputs: [o(['a', ' b', ' x'])] };
    const c = compare(before, after);
    assert.equal(c.regressed, false);
    assert.equal(c.outputs.length, 1);
    const x = c.outputs[0]!.comparison;
    assert.ok(!x.identical && x.tokenIndex === 2 && x.charOffset === 3);
    assert.equal(compare(before, after, { failOnDivergence: true }).regressed, true);
    assert.equal(compare(before, before, { failOnDivergence: true }).regressed, false);
    assert.deepEqual(compare(before, {}).outputsMissing, ['a/long #0']);
    const table = comparisonTable(c);
    assert.match(table, /a\/long #0: departs at token 2 \(char 3\), after "a b"\n {4}before: " c"\n {4}after: {2}" x"/);
  });

  it("a departure within the build's own spread is no change; one earlier than it is, and says so", () => {
    const o = (tokens: string[]) => ({ sample: 0, temperature: 0, seed: 1, tokens, totalTokens: tokens.length, truncated: false });
    const text = ['a', ' b', ' c', ' d', ' e'];
    const late = { outputs: [o(['a', ' b', ' c', ' d', ' x'])] };
    const early = { outputs: [o(['a', ' x', ' c', ' d', ' e'])] };
    const spread = { outputs: [o(text)], selfDeparture: { repeats: 2, tokenIndex: 3 } };
    const within = compare(spread, late, { failOnDivergence: true });
    assert.equal(within.regressed, false, 'departs at 4, the build itself at 3');
    assert.deepEqual([within.outputs[0]!.changed, within.outputs[0]!.selfDeparture], [false, { repeats: 2, tokenIndex: 3 }]);
    const t = comparisonTable(within);
    assert.match(
      t,
      /a\/long #0: departs at token 4 \(char 7\), within the build's own spread \(departed at token 3 in 2 runs\): not a change, after/,
    );
    assert.doesNotMatch(t, /means changed numerics/);
    assert.match(t, /result: no regression beyond the tolerances\n$/);
    const earlier = compare(spread, early, { failOnDivergence: true });
    assert.equal(earlier.regressed, true);
    assert.equal(earlier.outputs[0]!.changed, true);
    assert.match(
      comparisonTable(earlier),
      /departs at token 1 \(char 1\), earlier than the build's own spread \(departed at token 3 in 2 runs\)[\s\S]*REGRESSED \(1 output departed/,
    );
    // a build that never departed from itself: any departure is a change
    const never = compare({ ...spread, selfDeparture: { repeats: 2, tokenIndex: null } }, late);
    assert.equal(never.outputs[0]!.changed, true);
    assert.match(comparisonTable(never), /earlier than the build's own spread \(never departed in 2 runs\)/);
    // a baseline without the figure (an earlier build): every departure counts, as before
    assert.equal(compare({ outputs: [o(text)] }, late).outputs[0]!.changed, true);
    assert.equal(compare({ outputs: [o(text)] }, late).outputs[0]!.selfDeparture, null);
  });

  it('lists what the targets say of themselves that changed, never as a regression', () => {
    const c = compareBaselines(
      baseline(pair(), { model: 'm', systemFingerprint: 'fp_1', server: null, version: '1.0.0', hash: 'aaa', unavailable: null }),
      baseline(pair(), { model: 'm', systemFingerprint: 'fp_2', server: 'vllm', version: null, hash: 'bbb', unavailable: 'info: x' }),
      DEFAULT_TOLERANCES,
      'fail',
    );
    assert.deepEqual(c.fingerprintChanges, [
      { target: 'a', field: 'systemFingerprint', before: 'fp_1', after: 'fp_2' },
      { target: 'a', field: 'server', before: null, after: 'vllm' },
      { target: 'a', field: 'version', before: '1.0.0', after: null },
    ]);
    assert.equal(c.regressed, false);
    const table = comparisonTable(c);
    assert.match(
      table,
      /changed \(not judged\):\n {2}a: systemFingerprint fp_1 → fp_2\n {2}a: server – → vllm\n {2}a: version 1\.0\.0 → –\n/,
    );
    assert.doesNotMatch(table, /hash|unavailable/);
  });

  it('a field only one side recorded (a baseline of an earlier build) is no change', () => {
    const c = compareBaselines(
      baseline(pair(), { model: 'm', origin: 'o', server: null }),
      baseline(pair(), { model: 'm', origin: 'o', server: null, version: '2.0.0', modelRevision: 'r2' }),
      DEFAULT_TOLERANCES,
      'fail',
    );
    assert.deepEqual(c.fingerprintChanges, []);
    assert.doesNotMatch(comparisonTable(c), /what the targets say/);
  });

  it('the table puts before, after and change side by side, and the outcome last', () => {
    const t = comparisonTable(compare({}, { verdicts: ['ok', 'fail'] }));
    assert.match(t, /target\/probe +figure +before +after +change/);
    assert.match(t, /a\/long +verdicts +2 ok +1 ok, 1 fail/);
    assert.match(t, /failed share +0% +50% +\+50 pts +WORSE: failed share \+50 points > --max-failed-rise 0/);
    assert.match(t, /result: REGRESSED \(1 figure worse than the tolerances allow\)\n$/);
    assert.match(comparisonTable(compare({}, {})), /result: no regression beyond the tolerances\n$/);
  });
});
