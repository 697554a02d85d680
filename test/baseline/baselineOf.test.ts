import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASELINE_FORMAT_VERSION, MAX_OUTPUT_TOKENS } from '../../src/baseline/baselineFormat.js';
import { baselineMismatch } from '../../src/baseline/baselineMismatch.js';
import { baselineOf, interTokenSeconds, median } from '../../src/baseline/baselineOf.js';
import { parseBaseline } from '../../src/baseline/parseBaseline.js';
import { probeSettings } from '../../src/baseline/probeSettings.js';
import { originOf, runFingerprint } from '../../src/baseline/runFingerprint.js';
import { tolerancesFromFlags, DEFAULT_TOLERANCES } from '../../src/baseline/tolerances.js';
import { validateConfig } from '../../src/config/validateConfig.js';
import type { Config } from '../../src/config/types.js';
import type { RunResult, SampleResult } from '../../src/probe/probeTypes.js';

function config(extra: Record<string, unknown> = {}): Config {
  const r = validateConfig(
    {
      targets: [{ name: 'a', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
      probes: [{ name: 'long', prompt: 'write', maxTokens: 100, temperature: 0, samples: 2, extraBody: { seed: 7 }, ...extra }],
    },
    {},
  );
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  return r.config;
}

const sample = (index: number, over: Partial<SampleResult> = {}): SampleResult =>
  ({
    index,
    verdict: 'ok',
    onsetToken: null,
    ttftSeconds: 0.1,
    durationSeconds: 1.09,
    outputTokens: 100,
    tokensPerSecond: 100,
    temperature: 0,
    content: 'The cache is warm.',
    ...over,
  }) as SampleResult;
const run = (samples: SampleResult[]): RunResult =>
  ({ id: 'r', target: 'a', probe: 'long', verdict: 'ok', trigger: 'manual', startedAt: '', durationSeconds: 1, samples }) as RunResult;
const meta = { version: '0.1.0', createdAt: '2026-01-01T00:00:00.000Z', fingerprints: {} };

describe('baselineOf', () => {
  it('keeps verdicts, the earliest onset of a failed sample, latency medians and the tokens at temperature 0 with a seed', () => {
    const b = baselineOf(
      [run([sample(1, { verdict: 'fail', onsetToken: 60, ttftSeconds: 0.3 }), sample(0, { onsetToken: 10 })])],
      config(),
      meta,
    );
    assert.equal(b.formatVersion, BASELINE_FORMAT_VERSION);
    const p = b.pairs[0]!;
    assert.deepEqual(p.verdicts, ['ok', 'fail']);
    assert.equal(p.onsetToken, 60, 'an ok sample has no collapse onset to count');
    assert.equal(p.latency.ttftSeconds, 0.2);
    assert.ok(Math.abs(p.latency.itlSeconds! - (0.99 / 99 + 0.79 / 99) / 2) < 1e-9, String(p.latency.itlSeconds));
    assert.deepEqual(
      p.outputs.map((o) => [o.sample, o.seed, o.tokens.join('')]),
      [
        [0, 7, 'The cache is warm.'],
        [1, 7, 'The cache is warm.'],
      ],
    );
    assert.equal(p.recall, null);
    assert.equal(p.conformance, null);
  });

  it('keeps no tokens without a seed, above temperature 0, or where the temperature was not sent', () => {
    assert.deepEqual(baselineOf([run([sample(0)])], config({ extraBody: {} }), meta).pairs[0]!.outputs, []);
    assert.deepEqual(baselineOf([run([sample(0, { temperature: 0.6 })])], config(), meta).pairs[0]!.outputs, []);
    assert.deepEqual(baselineOf([run([sample(0, { temperatureSent: false })])], config(), meta).pairs[0]!.outputs, []);
    // a contamination probe's prompts take the run id: no two runs ask the same
    const mixing = config({ kind: 'contamination', prompt: undefined, samples: 1 });
    assert.deepEqual(baselineOf([run([sample(0)])], mixing, meta).pairs[0]!.outputs, []);
  });

  it('bounds the tokens kept of one output', () => {
    const o = baselineOf([run([sample(0, { content: ' x'.repeat(MAX_OUTPUT_TOKENS + 5) })])], config(), meta).pairs[0]!.outputs[0]!;
    assert.equal(o.tokens.length, MAX_OUTPUT_TOKENS);
    assert.equal(o.totalTokens, MAX_OUTPUT_TOKENS + 5);
    assert.equal(o.truncated, true);
  });

  it('recall: the mean share; medians and inter-token latency of few samples', () => {
    const r = (ratio: number) => ({ kind: 'recall', ratio }) as SampleResult['outcome'];
    assert.equal(baselineOf([run([sample(0, { outcome: r(1) }), sample(1, { outcome: r(0.6) })])], config(), meta).pairs[0]!.recall, 0.8);
    assert.equal(median([]), null);
    assert.equal(median([3, null, 1, 2]), 2);
    assert.equal(median([4, 1]), 2.5);
    assert.equal(interTokenSeconds({ ttftSeconds: null, durationSeconds: 1, outputTokens: 9 }), null);
    assert.equal(interTokenSeconds({ ttftSeconds: 0.5, durationSeconds: 1, outputTokens: 1 }), null);
  });

  it('the fingerprint keeps no credentials or query; conformance evidence fills the answered model and system_fingerprint', () => {
    assert.equal(originOf('http://user:pw@127.0.0.1:1/v1/?key=secret'), 'http://127.0.0.1:1/v1');
    const fp = runFingerprint(config().targets[0]!, [
      run([
        sample(0, {
          outcome: {
            kind: 'conformance',
            checks: [
              { check: 'models', status: 'pass', reason: 'ok', detail: '', durationSeconds: 0, evidence: { answered: 'm-2026' } },
              {
                check: 'fields',
                status: 'pass',
                reason: 'ok',
                detail: '',
                durationSeconds: 0,
                evidence: { system_fingerprint: 'fp_a, fp_b', 'completion system_fingerprint': 'fp_a' },
              },
            ],
            reasoningModel: null,
            streaming: null,
          },
        }),
      ]),
    ]);
    assert.deepEqual(fp, {
      model: 'm',
      origin: 'http://127.0.0.1:1/v1',
      answeredModel: 'm-2026',
      systemFingerprint: 'fp_a, fp_b',
      server: null,
    });
    assert.ok(!JSON.stringify(fp).includes('secret') && !JSON.stringify(fp).includes('pw'));
  });
});

describe('parseBaseline', () => {
  const good = JSON.stringify(baselineOf([run([sample(0)])], config(), meta));
  it('reads what baselineOf writes', () => {
    const r = parseBaseline(good);
    assert.ok(r.ok);
    assert.equal(r.baseline.pairs[0]!.probe, 'long');
  });

  it('refuses another format version, naming both versions', () => {
    const r = parseBaseline(good.replace('"formatVersion":1', '"formatVersion":2'));
    assert.ok(!r.ok);
    assert.equal(r.kind, 'version');
    assert.match(r.error, /format version 2 \(made by coherency-exporter 0\.1\.0\); this version reads format 1/);
  });

  it('a corrupt file names what is wrong', () => {
    const cases: [string, RegExp][] = [
      [good.slice(0, good.length / 2), /^not JSON/],
      ['[]', /not a baseline of coherency-exporter/],
      [good.replace('"pairs":[', '"pairs":[3,'), /pairs\[0\]: not an object/],
      [good.replace('"verdicts":["ok"]', '"verdicts":["great"]'), /pairs\[0\]\.verdicts: not a list of ok, warn, fail, error/],
      [good.replace('"maxTokens":100', '"maxTokens":"100"'), /pairs\[0\]\.settings\.maxTokens: not a number/],
      [good.replace(/"tokens":\[[^\]]*\]/, '"tokens":[1]'), /pairs\[0\]\.outputs\[0\]\.tokens: not a list of strings/],
      [good.replace('"ttftSeconds":0.1', '"ttftSeconds":"x"'), /pairs\[0\]\.latency/],
      [good.replace('"fingerprints":{}', '"fingerprints":{"a":{"model":3}}'), /^fingerprints:/],
    ];
    for (const [text, want] of cases) {
      const r = parseBaseline(text);
      assert.ok(!r.ok, String(want));
      assert.equal(r.kind, 'corrupt');
      assert.match(r.error, want);
    }
  });
});

describe('baselineMismatch', () => {
  const b = baselineOf([run([sample(0)])], config(), meta);
  const planned = (c: Config, pairs = [{ target: 'a', probe: 'long' }]) =>
    pairs.map((p) => ({ ...p, settings: probeSettings(c.probes.find((x) => x.name === p.probe)!) }));

  it("nothing to say when the version, pairs and settings are the baseline's; a schedule is no setting", () => {
    assert.deepEqual(baselineMismatch(b, '0.1.0', planned(config())), []);
    assert.deepEqual(baselineMismatch(b, '0.1.0', planned(config({ schedule: '*/5 * * * *', timeouts: { totalSeconds: 9 } }))), []);
  });

  it('another tool version is refused, naming both', () => {
    assert.match(baselineMismatch(b, '0.2.0', planned(config())).join(), /made by coherency-exporter 0\.1\.0, this is 0\.2\.0/);
  });

  it("other pairs are refused, naming each side's", () => {
    const c = validateConfig(
      {
        targets: [{ name: 'a', baseUrl: 'http://h/v1', model: 'm' }],
        probes: [
          { name: 'long', prompt: 'write', maxTokens: 100, temperature: 0, samples: 2, extraBody: { seed: 7 } },
          { name: 'short', prompt: 'x', maxTokens: 10 },
        ],
      },
      {},
    );
    assert.ok(c.ok);
    const problems = baselineMismatch(b, '0.1.0', planned(c.config, [{ target: 'a', probe: 'short' }]));
    assert.deepEqual(problems, [
      'the baseline has a/long, which this run does not select',
      'this run selects a/short, which the baseline does not have',
    ]);
  });

  it('changed probe settings are refused, naming each (digests as changed)', () => {
    const [p] = baselineMismatch(b, '0.1.0', planned(config({ maxTokens: 200, prompt: 'other', extraBody: { seed: 8 } })));
    assert.equal(
      p,
      'probe long of target a has other settings than in the baseline: maxTokens 100 then, 200 now; seed (extraBody.seed) 7 then, 8 now; the prompt (messages) changed; extraBody changed',
    );
  });
});

describe('tolerancesFromFlags', () => {
  it('defaults, flags, and every bad one named', () => {
    assert.deepEqual(tolerancesFromFlags({}), { ok: true, tolerances: DEFAULT_TOLERANCES });
    const r = tolerancesFromFlags({ 'max-failed-rise': '0.5', 'max-ttft-rise': '1.5', 'fail-on-divergence': true });
    assert.ok(r.ok);
    assert.deepEqual(r.tolerances, { ...DEFAULT_TOLERANCES, failedRise: 0.5, ttftRise: 1.5, failOnDivergence: true });
    const bad = tolerancesFromFlags({ 'max-failed-rise': '2', 'max-onset-drop': '-1', 'max-itl-rise': 'lots' });
    assert.ok(!bad.ok);
    assert.deepEqual(bad.errors, [
      '--max-failed-rise: a number from 0 to 1, got "2"',
      '--max-onset-drop: a number from 0 to 1, got "-1"',
      '--max-itl-rise: a number from 0 to 100, got "lots"',
    ]);
  });
});
