import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import type { ConformanceCheckName } from '../../src/config/probeKindTypes.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { recordSample } from '../../src/metrics/recordRun.js';
import type { CheckReason, CheckResult } from '../../src/probe/conformance/checkTypes.js';
import { errorSample } from '../../src/probe/judgeSample.js';
import type { SampleResult } from '../../src/probe/probeTypes.js';

/** A conformance sample with these checks: [name, status, reason]. */
function checklist(checks: [ConformanceCheckName, CheckResult['status'], CheckReason][], streaming = true): SampleResult {
  const s = errorSample(0, 'internal', '');
  s.error = null;
  s.reasons = [];
  s.durationSeconds = 2;
  s.verdict = checks.some(([, st]) => st === 'fail') ? 'fail' : 'ok';
  s.outcome = {
    kind: 'conformance',
    checks: checks.map(([check, status, reason]) => ({ check, status, reason, detail: '', evidence: {}, durationSeconds: 0.1 })),
    reasoningModel: false,
    streaming: streaming ? { lateContentRatio: 0.1, firstContentRatio: 0.02 } : null,
  };
  return s;
}

const value = (text: string, series: string): string | null => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? line.slice(series.length + 1) : null;
};

test('a checklist moves each check: success, consecutive failures, failures by reason, the failing reason; skipped checks have none', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const at = (check: string) => `{target="t",probe="c",check="${check}"}`;
  recordSample(
    metrics,
    't',
    'c',
    checklist([
      ['models', 'pass', 'ok'],
      ['streaming', 'fail', 'buffered'],
      ['auth', 'skipped', 'no_api_key'],
    ]),
  );
  let text = await registry.metrics();
  assert.equal(value(text, `coherency_conformance_check_success${at('models')}`), '1');
  assert.equal(value(text, `coherency_conformance_check_success${at('streaming')}`), '0');
  assert.equal(value(text, `coherency_conformance_check_success${at('auth')}`), null);
  assert.equal(value(text, `coherency_conformance_check_consecutive_failures${at('streaming')}`), '1');
  assert.equal(value(text, 'coherency_conformance_check_failures_total{target="t",probe="c",check="streaming",reason="buffered"}'), '1');
  assert.equal(value(text, 'coherency_conformance_check_failure_info{target="t",probe="c",check="streaming",reason="buffered"}'), '1');
  assert.equal(value(text, 'coherency_conformance_streaming_late_content_ratio{target="t",probe="c"}'), '0.1');
  assert.equal(value(text, 'coherency_conformance_streaming_first_content_ratio{target="t",probe="c"}'), '0.02');
  // a checklist is not degenerate output: no quality histogram, no output tokens observed
  assert.doesNotMatch(text, /coherency_output_tokens_count\{target="t"/);

  // the second failing run, for another reason; then the target is down (an error sample moves nothing)
  recordSample(metrics, 't', 'c', checklist([['streaming', 'fail', 'no_done']], false));
  const down = errorSample(0, 'connect', 'refused');
  down.outcome = { kind: 'conformance', checks: [], reasoningModel: null, streaming: null };
  recordSample(metrics, 't', 'c', down);
  text = await registry.metrics();
  assert.equal(value(text, `coherency_conformance_check_consecutive_failures${at('streaming')}`), '2');
  assert.equal(value(text, 'coherency_conformance_check_failure_info{target="t",probe="c",check="streaming",reason="buffered"}'), null);
  assert.equal(value(text, 'coherency_conformance_check_failure_info{target="t",probe="c",check="streaming",reason="no_done"}'), '1');
  assert.equal(
    value(text, 'coherency_conformance_streaming_late_content_ratio{target="t",probe="c"}'),
    null,
    'not judged: no stale figure',
  );
  assert.equal(value(text, `coherency_conformance_check_success${at('models')}`), null, 'models did not run this time');

  // one passing run clears the streak and the reason; the counter keeps the history
  recordSample(metrics, 't', 'c', checklist([['streaming', 'pass', 'ok']]));
  text = await registry.metrics();
  assert.equal(value(text, `coherency_conformance_check_consecutive_failures${at('streaming')}`), '0');
  assert.equal(value(text, `coherency_conformance_check_success${at('streaming')}`), '1');
  assert.doesNotMatch(text, /coherency_conformance_check_failure_info\{target="t",probe="c",check="streaming"/);
  assert.equal(value(text, 'coherency_conformance_check_failures_total{target="t",probe="c",check="streaming",reason="no_done"}'), '1');
});
