import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCENARIOS, startSimulator, type Simulator } from '../../src/simulator/index.js';
import { postChat, readStream } from './sseHelpers.js';

describe('simulator streaming format', { timeout: 20_000 }, () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
  });
  after(() => sim.close());

  it('listens on loopback and reports its URL', () => {
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(sim.url, `http://127.0.0.1:${sim.port}/v1`);
  });

  it('streams role chunk, content deltas, finish, usage, [DONE] in the vLLM/OpenAI format', async () => {
    const response = await postChat(sim, { model: 'healthy', max_tokens: 200 });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const stream = await readStream(response);

    // Every event is one `data:` line followed by a blank line.
    assert.ok(stream.raw.endsWith('data: [DONE]\n\n'));
    for (const event of stream.raw.slice(0, -2).split('\n\n')) assert.match(event, /^data: [^\n]+$/);

    const [first, ...rest] = stream.chunks;
    assert.ok(first);
    assert.match(first.id, /^chatcmpl-/);
    assert.equal(first.object, 'chat.completion.chunk');
    assert.equal(first.model, 'healthy');
    assert.equal(typeof first.created, 'number');
    assert.deepEqual(first.choices, [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    for (const chunk of rest) {
      assert.equal(chunk.id, first.id);
      assert.equal(chunk.object, 'chat.completion.chunk');
    }

    const usageChunk = stream.chunks.at(-1);
    assert.deepEqual(usageChunk?.choices, []);
    const finishChunk = stream.chunks.at(-2);
    assert.deepEqual(finishChunk?.choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }]);
    assert.equal(stream.payloads.at(-1), '[DONE]');

    assert.equal(stream.contentDeltas.length, 200);
    assert.ok(stream.contentDeltas.every((delta) => delta.length > 0));
    assert.equal(stream.usage?.completion_tokens, stream.contentDeltas.length);
    assert.equal(stream.usage?.total_tokens, (stream.usage?.prompt_tokens ?? 0) + 200);
    assert.ok((stream.usage?.prompt_tokens ?? 0) > 0);

    const record = sim.requests.find((r) => r.id === first.id);
    assert.deepEqual(
      { ...record },
      {
        id: first.id,
        model: 'healthy',
        scenario: 'healthy',
        maxTokens: 200,
        stream: true,
        temperature: null,
        logprobs: false,
        status: 200,
        tokensSent: 200,
        clientClosedAtToken: null,
        finished: true,
      },
    );
  });

  it('respects max_tokens (and max_completion_tokens) exactly', async () => {
    for (const max of [1, 7, 1000]) {
      const stream = await readStream(await postChat(sim, { model: 'healthy', max_tokens: max }));
      assert.equal(stream.contentDeltas.length, max);
      assert.equal(stream.usage?.completion_tokens, max);
    }
    const stream = await readStream(await postChat(sim, { model: 'healthy', max_completion_tokens: 12 }));
    assert.equal(stream.contentDeltas.length, 12);
  });

  it('omits the usage chunk unless stream_options.include_usage is true', async () => {
    const stream = await readStream(await postChat(sim, { model: 'healthy', max_tokens: 20, stream_options: undefined }));
    assert.equal(stream.usage, null);
    assert.equal(stream.finishReason, 'length');
    assert.ok(stream.sawDone);
  });

  it('short ends early with finish_reason stop', async () => {
    const stream = await readStream(await postChat(sim, { model: 'short@30', max_tokens: 1000 }));
    assert.equal(stream.contentDeltas.length, 30);
    assert.equal(stream.finishReason, 'stop');
    assert.equal(stream.usage?.completion_tokens, 30);
    const byDefault = await readStream(await postChat(sim, { model: 'short', max_tokens: 1000 }));
    assert.equal(byDefault.contentDeltas.length, 50);
  });

  it('reasoning streams reasoning_content first, then content, counting both', async () => {
    const stream = await readStream(await postChat(sim, { model: 'reasoning@40', max_tokens: 100 }));
    assert.equal(stream.reasoningDeltas.length, 40);
    assert.equal(stream.contentDeltas.length, 60);
    assert.equal(stream.usage?.completion_tokens, 100);
    const kinds = stream.chunks
      .slice(1)
      .flatMap((chunk) => chunk.choices)
      .filter((choice) => choice.finish_reason === null)
      .map((choice) => (choice.delta.reasoning_content !== undefined ? 'r' : 'c'))
      .join('');
    assert.equal(kinds, 'r'.repeat(40) + 'c'.repeat(60));
    assert.notEqual(stream.reasoningDeltas.join(''), stream.contentDeltas.join('').slice(0, stream.reasoningDeltas.join('').length));
  });

  it('is deterministic for the same messages and seed, different for another seed', async () => {
    const text = async (seed: number) =>
      (await readStream(await postChat(sim, { model: 'healthy', max_tokens: 300, seed }))).contentDeltas.join('');
    assert.equal(await text(7), await text(7));
    assert.notEqual(await text(7), await text(8));
  });

  it('answers stream: false with a chat.completion body', async () => {
    const response = await postChat(sim, { model: 'short@25', max_tokens: 100, stream: false });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as Record<string, any>;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].message.role, 'assistant');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.equal(body.usage.completion_tokens, 25);
    const streamed = await readStream(await postChat(sim, { model: 'short@25', max_tokens: 100 }));
    assert.equal(body.choices[0].message.content, streamed.contentDeltas.join(''));
  });

  it('lists the scenarios as models', async () => {
    const response = await fetch(`${sim.url}/models`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { object: string; data: Array<{ id: string; object: string }> };
    assert.equal(body.object, 'list');
    assert.deepEqual(
      body.data.map((model) => model.id),
      SCENARIOS.map((scenario) => scenario.name),
    );
    for (const name of ['healthy', 'collapse-sentence', 'whitespace', 'fault-stall', 'fault-forever']) {
      assert.ok(
        body.data.some((model) => model.id === name),
        name,
      );
    }
  });

  it('rejects unknown routes, unknown models, bad parameters and bad bodies with JSON errors', async () => {
    const notFound = await fetch(`${sim.url}/embeddings`, { method: 'POST', body: '{}' });
    assert.equal(notFound.status, 404);
    assert.ok(((await notFound.json()) as any).error.message);

    const unknown = await postChat(sim, { model: 'gpt-9' });
    assert.equal(unknown.status, 404);
    const unknownBody = (await unknown.json()) as any;
    assert.equal(unknownBody.error.code, 'model_not_found');
    assert.match(unknownBody.error.message, /collapse-sentence/);

    const badParam = await postChat(sim, { model: 'collapse-sentence@soon' });
    assert.equal(badParam.status, 400);
    await badParam.body?.cancel();
    const noParam = await postChat(sim, { model: 'fault-500@3' });
    assert.equal(noParam.status, 400);
    await noParam.body?.cancel();

    const badJson = await fetch(`${sim.url}/chat/completions`, { method: 'POST', body: '{not json' });
    assert.equal(badJson.status, 400);
    assert.equal(((await badJson.json()) as any).error.type, 'invalid_request_error');

    for (const max_tokens of [-3, 0, 2.5, '100', 2_000_000]) {
      const badMax = await postChat(sim, { model: 'healthy', max_tokens });
      assert.equal(badMax.status, 400, String(max_tokens));
      await badMax.body?.cancel();
    }
  });

  it('refuses bodies over 1 MB', async () => {
    const response = await postChat(sim, { model: 'healthy', padding: 'x'.repeat(1024 * 1024 + 10) });
    assert.equal(response.status, 413);
    await response.body?.cancel();
  });
});
