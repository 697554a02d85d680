import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { forgetComparisonSeries, recordComparison, recordFingerprint } from '../../src/metrics/changeMetrics.js';
import { normalizeFingerprint } from '../../src/fingerprint/normalizeFingerprint.js';
import { summarize } from '../../src/fingerprint/changeComparison.js';
import { sampleFiguresOf } from '../helpers/sampleFigures.js';

const fp = (version: string, root = '/m/r1') =>
  normalizeFingerprint({
    served: [{ model: 'm', systemFingerprint: null, headers: {} }],
    modelEntry: { id: 'm', root, ownedBy: null, maxModelLen: null, created: null },
    info: { path: '/version', body: { version } },
    unavailable: [],
  });

const lines = async (registry: Registry, name: string) => (await registry.metrics()).split('\n').filter((l) => l.startsWith(`${name}{`));

describe('recordFingerprint', () => {
  test('one info series per target, replaced on change; a change counts and is stamped', async () => {
    const registry = new Registry();
    const m = createMetrics(registry, { version: 'x', defaultMetrics: false, detail: 'basic' });
    const a = fp('1.0');
    recordFingerprint(m, 't', a, null, false, 100, 'm-configured');
    assert.deepEqual(await lines(registry, 'coherency_target_info'), [
      'coherency_target_info{target="t",server="vllm",version="1.0",model_revision="/m/r1",model="m-configured",served_model="m"} 1',
    ]);
    assert.deepEqual(await lines(registry, 'coherency_target_changes_total'), []);
    const b = fp('2.0', '/m/r2');
    recordFingerprint(m, 't', b, a, true, 200, 'm-configured');
    assert.deepEqual(await lines(registry, 'coherency_target_info'), [
      'coherency_target_info{target="t",server="vllm",version="2.0",model_revision="/m/r2",model="m-configured",served_model="m"} 1',
    ]);
    assert.deepEqual(await lines(registry, 'coherency_target_changes_total'), ['coherency_target_changes_total{target="t"} 1']);
    assert.deepEqual(await lines(registry, 'coherency_target_last_change_timestamp_seconds'), [
      'coherency_target_last_change_timestamp_seconds{target="t"} 200',
    ]);
    recordFingerprint(m, 't', b, b, false, 300, 'm-configured');
    assert.equal((await lines(registry, 'coherency_target_info')).length, 1);
  });

  test('model is the configured one, served_model what the answers said: cut to 100 characters, redacted, "unknown" when unsaid', async () => {
    const registry = new Registry();
    const m = createMetrics(registry, { version: 'x', defaultMetrics: false, detail: 'basic' });
    const key = 'sk-canary-0123456789abcdef';
    const echoed = normalizeFingerprint({
      served: [{ model: `org/${'x'.repeat(150)}-${key}`, systemFingerprint: null, headers: {} }],
      modelEntry: null,
      info: null,
      unavailable: [],
      secrets: [key],
    });
    recordFingerprint(m, 'a', echoed, null, false, 1, `org/${'y'.repeat(150)}`);
    const served = normalizeFingerprint({
      served: [{ model: `${key}-model`, systemFingerprint: null, headers: {} }],
      modelEntry: null,
      info: null,
      unavailable: [],
      secrets: [key],
    });
    recordFingerprint(m, 'b', served, null, false, 1);
    const [a, b] = await lines(registry, 'coherency_target_info');
    assert.match(a ?? '', new RegExp(`model="org/${'y'.repeat(96)}",served_model="org/${'x'.repeat(96)}"`));
    assert.match(b ?? '', /model="unknown",served_model="\[redacted\]-model"/);
    assert.ok(!(await registry.metrics()).includes(key.slice(0, 8)), 'no piece of the key');
  });

  test('what the target did not say is "unknown"; a long value is cut', async () => {
    const registry = new Registry();
    const m = createMetrics(registry, { version: 'x', defaultMetrics: false, detail: 'basic' });
    const bare = normalizeFingerprint({
      served: [],
      modelEntry: null,
      info: { path: '/version', body: { version: 'v'.repeat(300) } },
      unavailable: [],
    });
    recordFingerprint(m, 't', bare, null, false, 1);
    const [line] = await lines(registry, 'coherency_target_info');
    assert.match(line ?? '', /version="v{100}",model_revision="unknown"/);
  });
});

describe('recordComparison', () => {
  test('both periods of every figure; a figure no sample had is absent, not stale', async () => {
    const registry = new Registry();
    const m = createMetrics(registry, { version: 'x', defaultMetrics: false, detail: 'basic' });
    const sample = sampleFiguresOf();
    const before = summarize([sample, sample]);
    const after = summarize([{ ...sample, failed: true, loop: true, onsetToken: 120, itlSeconds: 0.01 }]);
    recordComparison(m, { target: 't', probe: 'p', changedAtMs: 0, what: 'x', before, after });
    assert.deepEqual((await lines(registry, 'coherency_change_failed_ratio')).sort(), [
      'coherency_change_failed_ratio{target="t",probe="p",period="after"} 1',
      'coherency_change_failed_ratio{target="t",probe="p",period="before"} 0',
    ]);
    assert.deepEqual(await lines(registry, 'coherency_change_collapse_onset_tokens'), [
      'coherency_change_collapse_onset_tokens{target="t",probe="p",period="after"} 120',
    ]);
    assert.deepEqual(await lines(registry, 'coherency_change_recall_ratio'), []);
    recordComparison(m, { target: 't', probe: 'p', changedAtMs: 0, what: 'x', before, after: summarize([sample]) });
    assert.deepEqual(await lines(registry, 'coherency_change_collapse_onset_tokens'), [], 'gone once no sample after has an onset');
    forgetComparisonSeries(m, 't', 'p');
    assert.deepEqual(await lines(registry, 'coherency_change_failed_ratio'), []);
  });
});
