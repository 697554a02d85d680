import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { accumulateChatCompletionText, accumulateSseText } from '../../src/core/streamAccumulator.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';

/**
 * The simulator's /v1/completions and /v1/responses: their wire formats, read back through the
 * accumulator of the same API, with the scenarios, defects and builds of chat.
 */
describe('simulator: the completions and responses APIs', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({});
  });
  after(() => sim.close());

  const post = (path: string, body: Record<string, unknown>, base = sim.url) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('completions: text_completion chunks, the finish reason, usage when asked, then [DONE]', async () => {
    const res = await post('/completions', {
      model: 'healthy',
      prompt: 'Write about queues.',
      max_tokens: 40,
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(text.endsWith('data: [DONE]\n\n'));
    const first = JSON.parse(text.slice(6, text.indexOf('\n'))) as Record<string, unknown>;
    assert.equal(first.object, 'text_completion');
    assert.match(String(first.id), /^cmpl-/);
    const r = accumulateSseText(text, 'completions');
    assert.deepEqual([r.finishReason, r.outputTokens, r.outputTokensSource, r.error], ['length', 40, 'usage', null]);
    assert.ok(r.content.length > 40);
    assert.equal(sim.requests.at(-1)!.api, 'completions');
  });

  it('responses: typed events with their event lines, no [DONE], usage and status on the last event', async () => {
    const res = await post('/responses', {
      model: 'reasoning',
      input: [{ role: 'user', content: 'Think.' }],
      max_output_tokens: 60,
      stream: true,
    });
    const text = await res.text();
    const types = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(types.slice(0, 3), ['response.created', 'response.in_progress', 'response.output_item.added']);
    assert.equal(types.at(-1), 'response.incomplete');
    assert.ok(types.includes('response.reasoning_text.delta') && types.includes('response.output_text.delta'));
    assert.ok(!text.includes('[DONE]'));
    const r = accumulateSseText(text, 'responses');
    assert.deepEqual([r.finishReason, r.outputTokens, r.outputTokensSource, r.done], ['length', 60, 'usage', true]);
    assert.ok(r.reasoning.length > 0 && r.content.length > 0);
    const sequence = [...text.matchAll(/"sequence_number":(\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      sequence,
      sequence.map((_, i) => i),
    );
  });

  it('a natural end is response.completed and finish stop', async () => {
    const res = await post('/responses', { model: 'short@30', input: 'Hi', max_output_tokens: 500, stream: true });
    const r = accumulateSseText(await res.text(), 'responses');
    assert.deepEqual([r.finishReason, r.outputTokens], ['stop', 30]);
  });

  it('non-streamed answers of both APIs', async () => {
    const c = await post('/completions', { model: 'healthy', prompt: 'Hi', max_tokens: 8 });
    const cr = accumulateChatCompletionText(await c.text(), undefined, 'completions');
    assert.deepEqual([cr.finishReason, cr.outputTokens, cr.error], ['length', 8, null]);
    const r = await post('/responses', { model: 'reasoning', input: 'Hi', max_output_tokens: 30, stream: false });
    const body = (await r.json()) as { object: string; status: string };
    assert.deepEqual([body.object, body.status], ['response', 'incomplete']);
    const rr = accumulateChatCompletionText(JSON.stringify(body), undefined, 'responses');
    assert.equal(rr.outputTokens, 30);
    assert.ok(rr.reasoning.length > 0);
  });

  it('a server error mid-stream: response.failed, read as a server error', async () => {
    const res = await post('/responses', { model: 'fault-error-event', input: 'Hi', max_output_tokens: 100, stream: true });
    const text = await res.text();
    assert.match(text, /event: response\.failed/);
    assert.equal(accumulateSseText(text, 'responses').error?.type, 'server_error_event');
  });

  it('defects and builds apply as for chat', async () => {
    const base = sim.url.replace(/\/v1$/, '');
    const noUsage = await post(
      '/completions',
      { model: 'healthy', prompt: 'Hi', max_tokens: 20, stream: true, stream_options: { include_usage: true } },
      `${base}/defect/usage-missing/v1`,
    );
    assert.equal(accumulateSseText(await noUsage.text(), 'completions').outputTokensSource, 'deltas');
    const noReasoning = await post(
      '/responses',
      { model: 'reasoning', input: 'Hi', max_output_tokens: 40, stream: true },
      `${base}/defect/reasoning-dropped/v1`,
    );
    assert.equal(accumulateSseText(await noReasoning.text(), 'responses').reasoning, '');
    const healthy = await post('/completions', { model: 'healthy', prompt: 'Hi', max_tokens: 300 });
    const drifted = await post('/completions', { model: 'healthy', prompt: 'Hi', max_tokens: 300 }, `${base}/build/drift@100/v1`);
    const [a, b] = [(await healthy.json()) as any, (await drifted.json()) as any];
    assert.notEqual(a.choices[0].text, b.choices[0].text);
  });

  it('refuses a request without its API fields, naming them', async () => {
    for (const [path, body, field] of [
      ['/completions', { model: 'healthy', messages: [{ role: 'user', content: 'x' }] }, 'prompt'],
      ['/completions', { model: 'healthy', prompt: 'x', max_completion_tokens: 5 }, 'max_tokens'],
      ['/responses', { model: 'healthy', messages: [{ role: 'user', content: 'x' }] }, 'input'],
      ['/responses', { model: 'healthy', input: 'x', max_tokens: 5 }, 'max_output_tokens'],
    ] as const) {
      const res = await post(path, body);
      assert.equal(res.status, 400, path);
      assert.match(((await res.json()) as any).error.message, new RegExp(field), `${path} ${JSON.stringify(body)}`);
    }
  });
});
