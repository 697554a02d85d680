import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FOLDABLE_KEYS, isFolded, peopleMessage, SAMPLE_FINISHED, terminalSafe, type LogObject } from '../../src/logging/peopleLine.js';

const URL = 'http://127.0.0.1:9464';
const RUN = '7748551c-4a72-4c9f-841a-afb84a01a440';
const sample = (over: LogObject): LogObject => ({
  msg: SAMPLE_FINISHED,
  target: 'sim-collapse',
  probe: 'long',
  run: RUN,
  sample: 0,
  verdict: 'ok',
  reasons: [],
  findings: [],
  outputTokens: 3000,
  durationSeconds: 0.75,
  ...over,
});

test('a finished sample reads as one sentence: pair, verdict, what made it, size and time, the link to its run', () => {
  const cases: [LogObject, string][] = [
    [sample({}), `sim-collapse/long #0 ok (3000 tokens, 0.75 s) ${URL}/runs/${RUN}`],
    [
      sample({
        verdict: 'fail',
        findings: [
          { kind: 'near_loop', severity: 'warn', atToken: 40 },
          { kind: 'sentence_loop', severity: 'fail', atToken: 812 },
        ],
      }),
      `sim-collapse/long #0 fail: sentence_loop from token 812 (3000 tokens, 0.75 s) ${URL}/runs/${RUN}`,
    ],
    // the rule of the detector's table that fired, when it names one
    [
      sample({ verdict: 'fail', findings: [{ kind: 'gibberish', severity: 'fail', atToken: 7, rule: 'codeChunkShare' }] }),
      `sim-collapse/long #0 fail: gibberish (codeChunkShare) from token 7 (3000 tokens, 0.75 s) ${URL}/runs/${RUN}`,
    ],
    [
      sample({ verdict: 'warn', findings: [{ kind: 'codeword_missing', severity: 'warn', atToken: -1 }] }),
      `sim-collapse/long #0 warn: codeword_missing (3000 tokens, 0.75 s) ${URL}/runs/${RUN}`,
    ],
    [
      sample({ verdict: 'error', error: 'connect', outputTokens: 0, durationSeconds: 0.01 }),
      `sim-collapse/long #0 error: connect (0 tokens, 0.01 s) ${URL}/runs/${RUN}`,
    ],
    [sample({ temperature: 0, sample: 3 }), `sim-collapse/long #3 ok (temperature 0, 3000 tokens, 0.75 s) ${URL}/runs/${RUN}`],
    // a conformance checklist names its failed checks and their reasons
    [
      sample({
        probe: 'conformance',
        verdict: 'fail',
        reasons: [
          'conformance: streaming failed (buffered): 100% of the text arrived in the last 10% of the stream',
          'conformance: tools failed (index_collision): two calls at index 0',
        ],
        findings: [
          { kind: 'conformance', severity: 'fail', atToken: -1 },
          { kind: 'conformance', severity: 'fail', atToken: -1 },
        ],
        outputTokens: 0,
        durationSeconds: 2.1,
      }),
      `sim-collapse/conformance #0 fail: streaming: buffered, tools: index_collision (0 tokens, 2.1 s) ${URL}/runs/${RUN}`,
    ],
  ];
  for (const [log, line] of cases) assert.equal(peopleMessage(log, URL), line);
  // before the daemon's address is known (a run at start-up), the link is the path
  assert.equal(peopleMessage(sample({}), null), `sim-collapse/long #0 ok (3000 tokens, 0.75 s) /runs/${RUN}`);
});

test('what the sentence says is left out of the line; other lines keep their fields and get the pair as a prefix', () => {
  const done = sample({ verdict: 'fail' });
  assert.deepEqual(
    FOLDABLE_KEYS.filter((k) => isFolded(done, k)),
    ['target', 'probe', 'sample', 'run', 'verdict', 'reasons', 'findings', 'outputTokens', 'durationSeconds', 'error', 'temperature'],
  );
  const early: LogObject = { msg: 'output collapsed: closing the stream early', target: 't', probe: 'p', sample: 1, tokens: 400 };
  assert.equal(peopleMessage(early, URL), 't/p #1 output collapsed: closing the stream early');
  assert.deepEqual(
    FOLDABLE_KEYS.filter((k) => isFolded(early, k)),
    ['target', 'probe', 'sample', 'run'],
  );
  const daemon: LogObject = { msg: 'config reloaded', targets: 2 };
  assert.equal(peopleMessage(daemon, URL), 'config reloaded');
  assert.deepEqual(
    FOLDABLE_KEYS.filter((k) => isFolded(daemon, k)),
    [],
  );
});

test('what a terminal would obey is written as its escape: a target cannot clear the screen or rewrite a line', () => {
  const line = peopleMessage(
    {
      target: 'local',
      probe: 'long',
      sample: 0,
      msg: SAMPLE_FINISHED,
      verdict: 'error',
      error: 'http_500: \u001b[2J\u001b[1;1Hall clear\rok\u202e',
    },
    null,
  );
  assert.equal(line, 'local/long #0 error: http_500: \\u001b[2J\\u001b[1;1Hall clear\\u000dok\\u202e');
  assert.equal(peopleMessage({ msg: 'model "m\u0007\n" read' }, null), 'model "m\\u0007\\u000a" read');
  // tabs, accents and other scripts are text
  assert.equal(terminalSafe('a\tb é 한국어 中文'), 'a\tb é 한국어 中文');
});
