/** The run page shows the learned model's probability and the figures that moved it; a stored run keeps a sound score and drops a damaged one. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AnalysisScore } from '../../src/core/analysisTypes.js';
import { renderRun } from '../../src/http/renderRun.js';
import type { SampleResult } from '../../src/probe/probeTypes.js';
import { repairRun } from '../../src/state/storedRunShape.js';
import { testRun } from '../helpers/testConfig.js';

const score = (over: Partial<AnalysisScore> = {}): AnalysisScore => ({
  mode: 'rules',
  probability: 0.2573,
  threshold: 0.655292,
  warnFrom: 0.257418,
  contributions: [
    ['finding.punctuation_flood.fail', 0.9712],
    ['text.tailGzip', -0.41],
    ['<script>', 0.1],
  ],
  ...over,
});

const sample = (s: SampleResult['score']) =>
  ({
    index: 0,
    verdict: 'fail' as const,
    reasons: ['content: punctuation_flood: 40 copies'],
    findings: [],
    notes: [],
    content: 'Hi !?!?',
    reasoning: '',
    metrics: null,
    error: null,
    outputTokens: 5,
    finishReason: 'stop',
    ttftSeconds: null,
    durationSeconds: 1,
    tokensPerSecond: null,
    aborted: false,
    tokensAtAbort: null,
    tokensSaved: 0,
    contentChars: 7,
    reasoningChars: 0,
    score: s,
  }) as unknown as SampleResult;

const NOW = Date.parse('2026-01-01T00:01:00Z');

describe('the learned model on the run page', () => {
  test('shows the probability, the band, who decides and the top figures, escaped', () => {
    const page = renderRun(testRun('r1', [sample({ content: score(), reasoning: null })]), NOW);
    assert.match(
      page,
      /<h3>Learned model<\/h3><p>content: probability <b>0\.257<\/b> \(fail from 0\.655, warn from 0\.257; information only: the rules decide\)<\/p>/,
    );
    assert.match(page, /<li><code>\+0\.97<\/code> finding\.punctuation_flood\.fail<\/li><li><code>−0\.41<\/code> text\.tailGzip<\/li>/);
    assert.ok(page.includes('&#60;script&#62;'), 'escaped');
    const learned = renderRun(testRun('r2', [sample({ content: score({ mode: 'learned' }), reasoning: null })]), NOW);
    assert.match(learned, /decides with the hard rules/);
    const none = renderRun(testRun('r3', [sample(null)]), NOW);
    assert.ok(!none.includes('Learned model'));
  });

  test('a stored run keeps a sound score and drops a damaged one', () => {
    const run = repairRun(
      testRun('r4', [
        sample({ content: score(), reasoning: null }),
        sample({ content: { ...score(), probability: 'high' } as unknown as AnalysisScore, reasoning: null }),
        sample('x' as unknown as SampleResult['score']),
      ]),
    );
    assert.deepEqual(run.samples[0]!.score, { content: score(), reasoning: null });
    assert.equal(run.samples[1]!.score, null);
    assert.equal(run.samples[2]!.score, null);
    assert.ok(renderRun(run, NOW).includes('Learned model'));
  });
});
