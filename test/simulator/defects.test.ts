// The simulator's defect switches (a path prefix per target), its tools, stop sequences and API
// key: each switch changes what it says to say, and nothing else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { planToolCalls, properNames } from '../../src/simulator/toolCalls.js';
import { stopAt, textSource } from '../../src/simulator/tokenSource.js';
import { readStream } from './sseHelpers.js';

const KEY = 'sim-test-key-0123456789';
const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
};

describe('simulator defects, tools, stop and key', { timeout: 20_000 }, () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0, apiKey: KEY });
  });
  after(() => sim.close());

  const base = (defects?: string) => (defects ? sim.url.replace(/\/v1$/, `/defect/${defects}/v1`) : sim.url);
  const post = (body: Record<string, unknown>, defects?: string, key: string | null = KEY) =>
    fetch(`${base(defects)}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify({ model: 'healthy', messages: [{ role: 'user', content: 'Write about the sea.' }], ...body }),
    });
  const json = async (r: Response) => (await r.json()) as Record<string, any>;

  it('enforces its key on every route, unless auth-open', async () => {
    assert.equal((await post({ max_tokens: 5 }, undefined, null)).status, 401);
    assert.equal((await post({ max_tokens: 5 }, undefined, 'wrong')).status, 401);
    assert.equal((await fetch(`${sim.url}/models`)).status, 401);
    assert.equal((await post({ max_tokens: 5 })).status, 200);
    assert.equal((await post({ max_tokens: 5 }, 'auth-open', null)).status, 200);
    assert.equal((await post({ max_tokens: 5 }, 'auth-open', 'wrong')).status, 200);
  });

  it('refuses an unknown defect, naming the known ones', async () => {
    const r = await post({ max_tokens: 5 }, 'buffered+nope');
    assert.equal(r.status, 404);
    assert.match((await json(r)).error.message, /Unknown defect `nope`.*buffered, reasoning-dropped/);
  });

  it('lists its models under a defect path too', async () => {
    const r = await fetch(`${base('model-renamed')}/models`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.ok(((await json(r)).data as { id: string }[]).some((m) => m.id === 'healthy'));
  });

  it('model-renamed names another model; usage-wrong-total leaves the prompt out of the total', async () => {
    const healthy = await json(await post({ max_tokens: 8 }));
    assert.equal(healthy.model, 'healthy');
    assert.equal(healthy.usage.total_tokens, healthy.usage.prompt_tokens + healthy.usage.completion_tokens);
    assert.equal((await json(await post({ max_tokens: 8 }, 'model-renamed'))).model, 'rerouted-model');
    const wrong = await json(await post({ max_tokens: 8 }, 'usage-wrong-total'));
    assert.equal(wrong.usage.total_tokens, wrong.usage.completion_tokens);
  });

  it('created-as-string sends created as a string, in a body and in every chunk', async () => {
    assert.equal(typeof (await json(await post({ max_tokens: 4 }))).created, 'number');
    assert.equal(typeof (await json(await post({ max_tokens: 4 }, 'created-as-string'))).created, 'string');
    const s = await readStream(await post({ max_tokens: 4, stream: true }, 'created-as-string'));
    assert.ok(s.chunks.length > 0 && s.chunks.every((c) => typeof c.created === 'string'));
  });

  it('max-tokens-ignored runs to 4096 tokens; finish-rewritten says stop for length', async () => {
    assert.equal((await json(await post({ max_tokens: 16 }))).usage.completion_tokens, 16);
    assert.equal((await json(await post({ max_tokens: 16 }, 'max-tokens-ignored'))).usage.completion_tokens, 4096);
    assert.equal((await json(await post({ max_tokens: 16 }))).choices[0].finish_reason, 'length');
    assert.equal((await json(await post({ max_tokens: 16 }, 'finish-rewritten'))).choices[0].finish_reason, 'stop');
  });

  it('ends the output before a stop sequence (finish stop), unless stop-ignored', async () => {
    const stopped = await json(await post({ max_tokens: 400, stop: ['.'] }));
    const text = stopped.choices[0].message.content as string;
    assert.ok(text.length > 10 && !text.includes('.'), text);
    assert.equal(stopped.choices[0].finish_reason, 'stop');
    const ignored = await json(await post({ max_tokens: 400, stop: ['.'] }, 'stop-ignored'));
    assert.ok((ignored.choices[0].message.content as string).includes('.'));
    assert.equal((await post({ max_tokens: 4, stop: [1] })).status, 400);
  });

  it('streams reasoning in its own field, drops it, or puts it in content between <think> tags', async () => {
    const body = { model: 'reasoning', max_tokens: 40, stream: true };
    const field = await readStream(await post(body));
    assert.ok(field.reasoningDeltas.length > 0);
    assert.ok(!field.contentDeltas.join('').includes('<think>'));
    const dropped = await readStream(await post(body, 'reasoning-dropped'));
    assert.equal(dropped.reasoningDeltas.length, 0);
    assert.equal(dropped.chunks.length, field.chunks.length, 'the chunks still arrive, without the field');
    const tagged = await readStream(await post(body, 'think-in-content'));
    assert.equal(tagged.reasoningDeltas.length, 0);
    assert.match(tagged.contentDeltas.join(''), /^<think>[\s\S]+<\/think>\n\n\S/);
    const message = (await json(await post({ model: 'reasoning', max_tokens: 40 }, 'think-in-content'))).choices[0].message;
    assert.equal(message.reasoning_content, undefined);
    assert.match(message.content, /^<think>[\s\S]+<\/think>/);
  });

  it('calls the offered tool once per place named, streamed with distinct indexes unless tool-index-zero', async () => {
    const ask = 'What is the weather in Paris and in Tokyo right now? Call get_weather once for each city.';
    const body = { tools: [WEATHER], messages: [{ role: 'user', content: ask }], max_tokens: 200 };
    const whole = await json(await post(body));
    assert.equal(whole.choices[0].finish_reason, 'tool_calls');
    const calls = whole.choices[0].message.tool_calls as { id: string; function: { name: string; arguments: string } }[];
    assert.deepEqual(
      calls.map((c) => JSON.parse(c.function.arguments)),
      [
        { city: 'Paris', unit: 'celsius' },
        { city: 'Tokyo', unit: 'celsius' },
      ],
    );
    const indexes = async (defects?: string) => {
      const s = await readStream(await post({ ...body, stream: true }, defects));
      assert.equal(s.finishReason, 'tool_calls');
      return s.chunks.flatMap((c) => c.choices.flatMap((ch) => ((ch.delta as any).tool_calls ?? []).map((t: any) => t.index)));
    };
    assert.deepEqual([...new Set(await indexes())], [0, 1]);
    assert.deepEqual([...new Set(await indexes('tool-index-zero'))], [0]);
  });

  it('usage-missing ignores include_usage; buffered sends the same stream', async () => {
    const body = { max_tokens: 20, stream: true, stream_options: { include_usage: true } };
    assert.ok((await readStream(await post(body))).usage);
    assert.equal((await readStream(await post(body, 'usage-missing'))).usage, null);
    const buffered = await readStream(await post(body, 'buffered'));
    assert.equal(buffered.contentDeltas.length, 20);
    assert.ok(buffered.sawDone);
  });
});

describe('pure helpers of the simulator', () => {
  it('properNames skips the words that open a sentence', () => {
    assert.deepEqual(properNames('What is the weather in Paris and in Tokyo? Call it for each City.'), ['Paris', 'Tokyo', 'City']);
  });
  it('planToolCalls fills the required parameters, one call per name', () => {
    const calls = planToolCalls([{ name: 'f', parameters: { properties: { n: { type: 'integer' } }, required: ['n'] } }], 'Ask Bob', 1);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.arguments, '{"n":1}');
  });
  it('stopAt ends the text before a stop that spans tokens', () => {
    const parts = ['The s', 'ea is', ' blue', '. And more'];
    let i = 0;
    const source = stopAt(
      textSource(() => parts[i++] ?? null),
      ['a is b'],
    );
    let text = '';
    for (let t = source.next(); t; t = source.next()) text += t.text;
    assert.equal(text, 'The se');
  });
});
