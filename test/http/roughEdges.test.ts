// Issue 21 §10: the run page and the probe report say what happened, once and visibly. Each case
// runs a sample through the app (the probe, the history, the page) on a fake stream.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sampleEndLine } from '../../src/oneShot/sampleReport.js';
import type { SampleResult } from '../../src/probe/probeTypes.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const LOOP = `${healthyProse(900, 3)}\n\n${'The scheduler retries the job and the job retries the scheduler. '.repeat(120)}`;

function setup() {
  const stream = fakeStream({
    blank: { content: '  \n\t \n', outputTokens: 300 },
    // a stream whose collapse the live check closes: no finish reason of its own
    closed: { content: LOOP, finishReason: null, outputTokens: 1500 },
    // a malformed event, then a collapse the live check would close: an error, nothing "saved"
    garbled: { content: LOOP, finishReason: null, outputTokens: 1500, error: { type: 'malformed', message: 'data is not JSON: zzz' } },
    loop: { content: LOOP, outputTokens: 3000 },
    healthy: { content: healthyProse(400, 5) },
  });
  const config = testConfig({
    targets: [
      testTarget({ name: 'blank', model: 'blank', probes: ['short'] }),
      testTarget({ name: 'closed', model: 'closed', probes: ['short'] }),
      testTarget({ name: 'garbled', model: 'garbled', probes: ['short'] }),
      testTarget({ name: 'loop', model: 'loop', probes: ['short'] }),
      testTarget({ name: 'greedy-only', model: 'healthy', probes: ['short'], omit: ['temperature'] }),
    ],
  });
  const { app } = testApp(config, stream.fn);
  const run = async (target: string) => {
    const json = (await app.inject({ method: 'POST', url: '/probe', payload: { target, probe: 'short' } })).json() as {
      id: string;
      samples: (SampleResult & { findings: Record<string, unknown>[] })[];
    };
    const page = (await app.inject({ url: `/runs/${json.id}?format=html` })).body;
    return { sample: json.samples[0]!, page };
  };
  return { run };
}

const row = (page: string, name: string) => new RegExp(`<td>${name}</td><td>([^<]*)</td>`).exec(page)?.[1];

describe('the run page and the probe report', () => {
  const { run } = setup();
  test('a blank output shows its blanks (␣ ↵ ⇥), and no unique word ratio of 1 for no words', async () => {
    const { sample, page } = await run('blank');
    assert.equal(sample.verdict, 'fail');
    assert.match(page, /<pre class="output" id="s0-content"><span class="ws">␣␣↵\n⇥␣↵\n<\/span><\/pre>/);
    assert.equal(row(page, 'unique word ratio'), '– (no words)');
  });

  test('a stream the daemon closed on a certain collapse: its finish reason says so, with the tokens saved', async () => {
    const { sample, page } = await run('closed');
    assert.equal(sample.aborted, true);
    assert.equal(sample.finishReason, null);
    assert.equal(row(page, 'finish reason'), 'closed early: collapse certain');
    assert.match(row(page, 'aborted early') ?? '', /^yes, at 1500 tokens \(1500 saved\)$/);
    assert.match(sampleEndLine('t', 'p', sample), /finish closed early: collapse certain, aborted at 1500 tokens \(1500 saved\)\)$/);
  });

  test('a malformed stream is an error with nothing "saved", even if its text had collapsed', async () => {
    const { sample, page } = await run('garbled');
    assert.equal(sample.verdict, 'error');
    assert.equal(sample.error?.type, 'malformed');
    assert.equal(sample.aborted, false);
    assert.equal(sample.tokensSaved, 0);
    assert.equal(row(page, 'aborted early'), 'no');
    assert.doesNotMatch(sampleEndLine('t', 'p', sample), /saved/);
    assert.ok(
      sample.notes.some((n: string) => /closed early at 1500 tokens \(collapse certain\), after it had failed \(malformed\)/.test(n)),
    );
  });

  test('one copy count: the figures give the copies as the reason does', async () => {
    const { sample, page } = await run('loop');
    const said = /repeated ([\d.]+) times/.exec(sample.reasons.join('\n'))?.[1];
    assert.ok(said, sample.reasons.join('\n'));
    assert.match(row(page, 'repeat') ?? '', new RegExp(`^sentence_loop: ${said.replace('.', '\\.')} copies of a \\d+-char unit`));
  });

  test('the temperature shown is the one sent: a target that omits it says the server default applied', async () => {
    const { sample, page } = await run('greedy-only');
    assert.equal(sample.temperatureSent, false);
    assert.equal(row(page, 'temperature'), 'not sent (server default; 0.6 asked)');
    assert.match(sampleEndLine('t', 'p', sample), /temperature not sent \(server default; 0\.6 asked\)/);
    const sent = await run('loop');
    assert.equal(row(sent.page, 'temperature'), '0.6');
  });

  test('a finding without a token position has no atToken in JSON, rather than -1', async () => {
    const { sample } = await run('blank');
    for (const f of sample.findings) assert.ok(!('atToken' in f) || (f['atToken'] as number) >= 0, JSON.stringify(f));
  });
});
