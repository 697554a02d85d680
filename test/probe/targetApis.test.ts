import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChat } from '../../src/client/streamChat.js';
import type { ChatRequest } from '../../src/client/streamTypes.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { adaptToRefusal, buildChatRequest, promptOf, shapeOf } from '../../src/probe/buildChatRequest.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

/**
 * Targets with api: completions and api: responses probed end to end against the simulator,
 * which speaks both: the same verdicts, reasoning, usage and early close as a chat target.
 */
describe('targets on the completions and responses APIs (simulator on loopback)', () => {
  let sim: Simulator;
  const sent: ChatRequest[] = [];
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 2000 });
  });
  after(() => sim.close());

  const deps = (): ProbeDeps => ({
    stream: (request, options) => {
      sent.push(request);
      return streamChat(request, options);
    },
    env: {},
    now: Date.now,
    logger: silentLogger,
    newId: () => 'x',
  });

  for (const api of ['completions', 'responses'] as const) {
    test(`${api}: a healthy model is ok, its usage read from the stream`, async () => {
      const run = await runProbe(testTarget({ baseUrl: sim.url, model: 'healthy', api }), testProbe({ maxTokens: 600 }), deps());
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'ok', s.reasons.join('; '));
      assert.equal(s.error, null);
      assert.equal(s.aborted, false);
      assert.equal(s.outputTokens, 600);
      assert.equal(s.finishReason, 'length');
      assert.ok(s.content.length > 1000, `content of ${s.content.length} chars`);
      const served = sim.requests.at(-1)!;
      assert.equal(served.api, api);
      assert.equal(served.finished, true);
      const request = sent.at(-1)!;
      assert.equal(request.api, api);
      assert.ok(request.url.endsWith(api === 'completions' ? '/v1/completions' : '/v1/responses'), request.url);
    });

    test(`${api}: a looping model fails, and the early close ends the stream`, async () => {
      const run = await runProbe(
        testTarget({ baseUrl: sim.url, model: 'collapse-sentence@500', api }),
        testProbe({ name: 'long', maxTokens: 8000, minTokens: 1500 }),
        deps(),
      );
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'fail', s.reasons.join('; '));
      assert.equal(s.aborted, true);
      assert.ok(s.tokensAtAbort! < 800, `aborted at ${s.tokensAtAbort}`);
      assert.ok(s.onsetToken !== null && Math.abs(s.onsetToken - 500) < 120, `onset token ${s.onsetToken}`);
      const served = sim.requests.at(-1)!;
      for (let i = 0; i < 100 && served.clientClosedAtToken === null; i++) await new Promise((r) => setTimeout(r, 10));
      console.log(
        `${api}: onset 500, detected onset token ${s.onsetToken}, client aborted at ${s.tokensAtAbort}, server saw the close at ${served.clientClosedAtToken}`,
      );
      assert.ok(
        served.clientClosedAtToken !== null && served.clientClosedAtToken < 800,
        `server saw the close at ${served.clientClosedAtToken}`,
      );
    });

    test(`${api}: a stream that ends in a server error is an error sample`, async () => {
      const run = await runProbe(testTarget({ baseUrl: sim.url, model: 'fault-error-event', api }), testProbe({ maxTokens: 200 }), deps());
      const s = run.samples[0]!;
      assert.equal(s.error?.type, 'server_error_event', JSON.stringify(s.error));
    });
  }

  test('responses: the reasoning arrives in its own channel', async () => {
    const run = await runProbe(
      testTarget({ baseUrl: sim.url, model: 'reasoning', api: 'responses' }),
      testProbe({ maxTokens: 800 }),
      deps(),
    );
    const s = run.samples[0]!;
    assert.equal(s.verdict, 'ok', s.reasons.join('; '));
    assert.ok(s.reasoning.length > 0, 'reasoning text');
    assert.ok(s.content.length > 0, 'content text');
    assert.ok(!s.content.includes('<think>'));
  });

  test('completions and responses carry logprobs when the probe asks for them', async () => {
    for (const api of ['completions', 'responses'] as const) {
      const run = await runProbe(
        testTarget({ baseUrl: sim.url, model: 'healthy', api }),
        testProbe({ maxTokens: 300, logprobs: true }),
        deps(),
      );
      const s = run.samples[0]!;
      assert.equal(sim.requests.at(-1)!.logprobs, true, api);
      assert.ok(s.logprobs && s.logprobs.tokens === 300, `${api}: ${JSON.stringify(s.logprobs)}`);
    }
  });

  test('a chat target sends exactly what it sent before (no api field, same body)', () => {
    const request = buildChatRequest(testTarget(), testProbe(), null);
    assert.equal('api' in request, false);
    assert.ok(request.url.endsWith('/chat/completions'));
    assert.deepEqual(Object.keys(request.body), ['model', 'messages', 'max_tokens', 'temperature', 'stream', 'stream_options']);
  });

  test('the request bodies of completions and responses', () => {
    const probe = testProbe({ maxTokens: 50, extraBody: { top_p: 0.9 } });
    const completions = buildChatRequest(testTarget({ api: 'completions' }), probe, 'k');
    assert.deepEqual(completions.body, {
      top_p: 0.9,
      model: 'healthy',
      prompt: 'Write a long article about databases.',
      max_tokens: 50,
      temperature: 0.6,
      stream: true,
      stream_options: { include_usage: true },
    });
    const responses = buildChatRequest(testTarget({ api: 'responses', omit: ['temperature'] }), probe, 'k');
    assert.deepEqual(responses.body, {
      top_p: 0.9,
      model: 'healthy',
      input: [{ role: 'user', content: 'Write a long article about databases.' }],
      max_output_tokens: 50,
      stream: true,
    });
    assert.equal(responses.headers['authorization'], 'Bearer k');
  });

  test('a refused max_tokens is renamed for chat only: completions has no max_completion_tokens', () => {
    const refusal = "HTTP 400: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
    const probe = testProbe();
    assert.equal(adaptToRefusal(refusal, shapeOf(testTarget()), testTarget(), probe)?.shape.maxTokensField, 'max_completion_tokens');
    const base = testTarget({ api: 'completions' });
    assert.equal(adaptToRefusal(refusal, shapeOf(base), base, probe), null);
  });

  test('a conversation written out as a prompt for a base model', () => {
    assert.equal(promptOf([{ role: 'user', content: 'Hi' }]), 'Hi');
    assert.equal(
      promptOf([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Count to 3.' },
      ]),
      'Be brief.\n\nUser: Hi\n\nAssistant: Hello.\n\nUser: Count to 3.\n\nAssistant:',
    );
  });
});
