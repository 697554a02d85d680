import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleReport } from '../../src/oneShot/sampleReport.js';
import type { SampleResult } from '../../src/probe/probeTypes.js';

const base = {
  index: 0,
  verdict: 'ok',
  outputTokens: 800,
  tokensPerSecond: 80,
  durationSeconds: 10,
  finishReason: 'stop',
  aborted: false,
  error: null,
  reasons: [],
  findings: [],
  notes: [],
  onsetToken: null,
  content: '',
  reasoning: '',
} as unknown as SampleResult;

test('the report of a sample prints its temperature and the figures of its other signals: adherence, logprobs, recall, contamination', () => {
  const text = sampleReport(
    't',
    'p',
    {
      ...base,
      temperature: 0.6,
      adherence: { coverage: 0.5, matched: ['cache', 'eviction'], missing: ['ttl', 'lru'], headings: 1 },
      logprobs: { tokens: 800, meanLogprob: -0.8123, tailTokens: 256, tailMeanLogprob: -0.02, tailNearCertainRatio: 0.93 },
      outcome: {
        kind: 'recall',
        ratio: 0.6,
        minRecall: 0.5,
        facts: 5,
        recalled: 3,
        conversationTokens: 16000,
        byPosition: {},
        missed: [
          { position: 'start', label: 'account number', value: '4411' },
          { position: 'end', label: 'code word', value: 'heron' },
        ],
      },
    } as SampleResult,
    null,
  );
  // a sample has one outcome: the contamination figures are another sample's
  const contamination = sampleReport(
    't',
    'p',
    {
      ...base,
      outcome: { kind: 'contamination', request: 2, topic: 'tides', codeWord: 'amber-fox', ownCodeWord: false, leakedFrom: [1, 3] },
    } as SampleResult,
    null,
  );
  assert.match(text, /^t\/p #0: OK \(800 tokens, 80 tokens\/s, 10\.0 s, temperature 0\.6, finish stop\)$/m);
  assert.match(text, /^ {2}adherence: keywords 2 of 4 \(50%\), missing "ttl", "lru"; 1 heading$/m);
  assert.match(text, /^ {2}logprobs: mean -0\.81 over 800 tokens; last 256: mean -0\.02, 93% near-certain$/m);
  assert.match(
    text,
    /^ {2}recall: 3 of 5 facts \(60%, min 50%\) from a 16000-token conversation; missed account number \(start\), code word \(end\)$/m,
  );
  assert.match(
    contamination,
    /^ {2}contamination: request 2 \(tides, code word amber-fox\): its own code word missing; holds the code word of request 1, 3$/m,
  );
});

test('a sample without those signals gets none of their lines', () => {
  const text = sampleReport('t', 'p', base, null);
  assert.equal(text, 't/p #0: OK (800 tokens, 80 tokens/s, 10.0 s, finish stop)\n');
});
