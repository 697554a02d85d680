/** The run page names the rule behind each finding that has one; a stored run keeps a rule name and drops anything else. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderRun } from '../../src/http/renderRun.js';
import type { SampleFinding } from '../../src/probe/probeTypes.js';
import { repairRun } from '../../src/state/storedRunShape.js';
import { testRun } from '../helpers/testConfig.js';

const finding = (over: Partial<SampleFinding>): SampleFinding => ({
  kind: 'gibberish',
  severity: 'fail',
  certain: false,
  atChar: 3,
  atToken: -1,
  detail: '60% of 24 words in a row are new codes',
  excerpt: '',
  channel: 'content',
  ...over,
});

const sample = (findings: SampleFinding[]) => ({
  index: 0,
  verdict: 'fail' as const,
  reasons: ['content: gibberish: 60% of 24 words in a row are new codes'],
  findings,
  notes: [],
  content: 'Hi 7QX2 0PL9W',
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
  contentChars: 13,
  reasoningChars: 0,
});

describe('the rule that fired', () => {
  test('the run page lists it beside the reasons, escaped; nothing when no finding names one', () => {
    const page = renderRun(testRun('r1', [sample([finding({ rule: 'codeChunkShare' })])]), Date.parse('2026-01-01T00:01:00Z'));
    assert.match(page, /<h3>Rules that fired<\/h3><ul class="rules"><li>content: gibberish: <code>codeChunkShare<\/code><\/li><\/ul>/);
    const odd = renderRun(testRun('r2', [sample([finding({ rule: '<b>' })])]), Date.parse('2026-01-01T00:01:00Z'));
    assert.ok(odd.includes('<code>&#60;b&#62;</code>'), 'escaped');
    const none = renderRun(testRun('r3', [sample([finding({})])]), Date.parse('2026-01-01T00:01:00Z'));
    assert.ok(!none.includes('Rules that fired'));
  });

  test('a stored run keeps a rule name and drops a rule that is none (an edited or damaged file)', () => {
    const run = repairRun(
      testRun('r4', [
        sample([
          finding({ rule: 'fenced.listItems' }),
          finding({ rule: 'x'.repeat(500) }),
          finding({ rule: 12 as unknown as string }),
          finding({ rule: 'a b' }),
        ]),
      ]),
    );
    assert.deepEqual(
      run.samples[0]!.findings.map((f) => f.rule),
      ['fenced.listItems', undefined, undefined, undefined],
    );
    assert.ok(!('rule' in run.samples[0]!.findings[1]!));
  });
});
