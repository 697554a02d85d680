import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { recordSample } from '../../src/metrics/recordRun.js';
import { initKindSeries } from '../../src/metrics/kindMetrics.js';
import { judgeSample } from '../../src/probe/judgeSample.js';
import { streamResult, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';

const sample = () =>
  judgeSample(streamResult({ content: 'COBALT-HERON-4821 and a few words of answer.', finishReason: 'stop' }), testProbe(), 0);

test('a recall sample sets coherency_recall_ratio; a contamination sample with a leak counts once', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const config = testConfig({
    targets: [testTarget({ name: 'a', probes: ['short', 'leak'] })],
    probes: [testProbe(), testProbe({ name: 'leak', kind: 'contamination', contamination: { concurrency: 2, seed: 1 } })],
  });
  initKindSeries(metrics, config);
  let text = await registry.metrics();
  assert.match(text, /^coherency_contamination_detected_total\{target="a",probe="leak"\} 0$/m);
  assert.doesNotMatch(text, /coherency_contamination_detected_total\{target="a",probe="short"\}/);

  const recalled = sample();
  recalled.outcome = {
    kind: 'recall',
    ratio: 0.4,
    minRecall: 0.5,
    facts: 5,
    recalled: 2,
    conversationTokens: 8000,
    byPosition: {},
    missed: [],
  };
  recordSample(metrics, 'a', 'recall', recalled);
  const clean = sample();
  clean.outcome = { kind: 'contamination', request: 1, topic: 't', codeWord: 'X', ownCodeWord: true, leakedFrom: [] };
  const leaked = sample();
  leaked.outcome = { kind: 'contamination', request: 2, topic: 't', codeWord: 'Y', ownCodeWord: false, leakedFrom: [1] };
  recordSample(metrics, 'a', 'leak', clean);
  recordSample(metrics, 'a', 'leak', leaked);
  text = await registry.metrics();
  assert.match(text, /^coherency_recall_ratio\{target="a",probe="recall"\} 0.4$/m);
  assert.match(text, /^coherency_recall_min_ratio\{target="a",probe="recall"\} 0.5$/m);
  assert.match(text, /^coherency_contamination_detected_total\{target="a",probe="leak"\} 1$/m);
  assert.doesNotMatch(text, /coherency_recall_ratio\{target="a",probe="leak"\}/);
});

test('a golden sample counts its answer as correct or wrong; an errored one counts nothing; the pair starts at 0', async () => {
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const config = testConfig({
    targets: [testTarget({ name: 'a', probes: ['short', 'golden'] })],
    probes: [testProbe(), testProbe({ name: 'golden', kind: 'golden', golden: { tasks: ['copy'], seed: 1 } })],
  });
  initKindSeries(metrics, config);
  let text = await registry.metrics();
  assert.match(text, /^coherency_golden_answers_total\{target="a",probe="golden",result="correct"\} 0$/m);
  assert.match(text, /^coherency_golden_answers_total\{target="a",probe="golden",result="wrong"\} 0$/m);
  assert.doesNotMatch(text, /coherency_golden_answers_total\{target="a",probe="short"/);

  const answered = (correct: boolean) => {
    const s = sample();
    s.outcome = { kind: 'golden', task: 'copy', expected: 'abc', answered: correct ? 'abc' : 'abd', correct };
    return s;
  };
  recordSample(metrics, 'a', 'golden', answered(true));
  recordSample(metrics, 'a', 'golden', answered(true));
  recordSample(metrics, 'a', 'golden', answered(false));
  recordSample(metrics, 'a', 'golden', { ...answered(false), verdict: 'error' });
  text = await registry.metrics();
  assert.match(text, /^coherency_golden_answers_total\{target="a",probe="golden",result="correct"\} 2$/m);
  assert.match(text, /^coherency_golden_answers_total\{target="a",probe="golden",result="wrong"\} 1$/m);
});
