import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { postChat, readStream, SseReader, summarize, waitFor } from './sseHelpers.js';

describe('simulator faults', { timeout: 30_000 }, () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());

  it('fault-stall sends N tokens, then goes silent with the connection open', async () => {
    const reader = new SseReader(await postChat(sim, { model: 'fault-stall@20', max_tokens: 1000 }));
    const payloads: string[] = [];
    for (;;) {
      const event = await reader.next(300);
      if (event === 'idle') break;
      assert.notEqual(event, 'end', 'the stream must stay open');
      if (event !== 'end') payloads.push(event.data);
    }
    const stream = summarize(payloads);
    assert.equal(stream.contentDeltas.length, 20);
    assert.equal(stream.finishReason, null);
    assert.equal(stream.sawDone, false);
    const record = sim.requests.at(-1);
    assert.equal(record?.finished, false);
    await reader.cancel();
    await waitFor(() => record?.clientClosedAtToken !== null);
    assert.equal(record?.clientClosedAtToken, 20);
  });

  it('fault-cut destroys the connection after N tokens', async () => {
    const reader = new SseReader(await postChat(sim, { model: 'fault-cut@30', max_tokens: 1000 }));
    const payloads: string[] = [];
    await assert.rejects(async () => {
      for (;;) {
        const event = await reader.next(3000);
        if (event === 'idle') throw new Error('idle, expected a cut');
        if (event === 'end') return; // a clean EOF would not reject: the assertion fails
        payloads.push(event.data);
      }
    });
    const stream = summarize(payloads);
    assert.equal(stream.contentDeltas.length, 30);
    assert.equal(stream.finishReason, null);
    assert.equal(stream.sawDone, false);
    const record = sim.requests.at(-1);
    assert.equal(record?.tokensSent, 30);
    assert.equal(record?.clientClosedAtToken, null);
    assert.equal(record?.finished, false);
  });

  for (const [model, status, code] of [
    ['fault-500', 500, 'internal_error'],
    ['fault-401', 401, 'invalid_api_key'],
    ['fault-429', 429, 'rate_limit_exceeded'],
  ] as const) {
    it(`${model} answers ${status} with an OpenAI-style JSON error`, async () => {
      const response = await postChat(sim, { model });
      assert.equal(response.status, status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { error: { message: string; type: string; code: string } };
      assert.equal(body.error.code, code);
      assert.ok(body.error.message.length > 0);
      assert.ok(body.error.type.length > 0);
      if (status === 429) assert.equal(response.headers.get('retry-after'), '1');
    });
  }

  it('fault-garbage puts a `data: not json` event after N tokens', async () => {
    const stream = await readStream(await postChat(sim, { model: 'fault-garbage@10', max_tokens: 40 }));
    const garbageAt = stream.payloads.indexOf('not json');
    assert.ok(garbageAt > 0);
    // role chunk + 10 content chunks come before it
    assert.equal(summarize(stream.payloads.slice(0, garbageAt)).contentDeltas.length, 10);
    assert.equal(stream.contentDeltas.length, 40);
    assert.ok(stream.sawDone);
  });

  it('fault-error-event sends an error event inside the 200 stream after N tokens', async () => {
    const response = await postChat(sim, { model: 'fault-error-event@15', max_tokens: 1000 });
    assert.equal(response.status, 200);
    const stream = await readStream(response);
    assert.equal(stream.contentDeltas.length, 15);
    assert.equal(stream.finishReason, null);
    const error = stream.payloads.map((p) => (p === '[DONE]' ? null : JSON.parse(p))).find((p) => p && 'error' in p);
    assert.equal(typeof error.error.message, 'string');
    assert.equal(stream.payloads.at(-1), '[DONE]');
  });

  it('fault-json answers a chat.completion body although stream: true was asked', async () => {
    const response = await postChat(sim, { model: 'fault-json', max_tokens: 50 });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as any;
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.usage.completion_tokens, 50);
    assert.ok(body.choices[0].message.content.length > 100);
  });

  it('fault-html answers an HTML page as 200 text/html (or @STATUS)', async () => {
    const response = await postChat(sim, { model: 'fault-html' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await response.text(), /<html>[\s\S]*502 Bad Gateway/);
    const withStatus = await postChat(sim, { model: 'fault-html@502' });
    assert.equal(withStatus.status, 502);
    await withStatus.body?.cancel();
  });

  it('fault-forever ignores max_tokens and keeps streaming', async () => {
    const reader = new SseReader(await postChat(sim, { model: 'fault-forever', max_tokens: 10 }));
    const payloads: string[] = [];
    while (payloads.length < 3000) {
      const event = await reader.next(3000);
      assert.ok(typeof event === 'object', `expected more data, got ${String(event)}`);
      payloads.push(event.data);
    }
    const stream = summarize(payloads);
    assert.ok(stream.contentDeltas.length > 2000);
    assert.equal(stream.finishReason, null);
    await reader.cancel();
    const record = sim.requests.at(-1);
    await waitFor(() => record?.clientClosedAtToken !== null);
  });

  it('fault-no-usage finishes without the usage chunk despite include_usage', async () => {
    const stream = await readStream(await postChat(sim, { model: 'fault-no-usage', max_tokens: 60 }));
    assert.equal(stream.usage, null);
    assert.equal(stream.contentDeltas.length, 60);
    assert.equal(stream.finishReason, 'length');
    assert.ok(stream.sawDone);
  });

  it('fault-slow-start holds the headers back for MS milliseconds', async () => {
    const started = performance.now();
    const response = await postChat(sim, { model: 'fault-slow-start@300', max_tokens: 20 });
    assert.ok(performance.now() - started >= 280, 'headers came early');
    const stream = await readStream(response);
    assert.equal(stream.contentDeltas.length, 20);
    assert.ok(stream.sawDone);
  });

  it('faults behave the same way without streaming', async () => {
    const cut = postChat(sim, { model: 'fault-cut@5', stream: false });
    await assert.rejects(cut);

    const errorEvent = await postChat(sim, { model: 'fault-error-event@5', stream: false });
    assert.equal(errorEvent.status, 200);
    assert.equal(typeof ((await errorEvent.json()) as any).error.message, 'string');

    const garbage = await postChat(sim, { model: 'fault-garbage@5', stream: false });
    assert.equal(await garbage.text(), 'not json');

    const controller = new AbortController();
    const stall = postChat(sim, { model: 'fault-stall@5', stream: false }, controller.signal);
    const outcome = await Promise.race([stall.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 300, 'hung'))]);
    assert.equal(outcome, 'hung');
    controller.abort();
    await assert.rejects(stall);
    const record = sim.requests.at(-1);
    await waitFor(() => record?.clientClosedAtToken !== null);
    assert.equal(record?.finished, false);
  });
});
