import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { repoPath } from '../helpers/repoRoot.js';
import {
  StreamAccumulator,
  accumulateSseText,
  accumulateChatCompletionText,
  type StreamAccumulation,
} from '../../src/core/streamAccumulator.js';
import { ApiChunks, apiOfCapture, type StreamApi } from '../../src/core/apiChunks.js';
import { analyzeCapture } from '../../src/core/analyzeCapture.js';
import { analyzeText } from '../../src/core/analyzeText.js';
import { createRng as rng } from '../../src/prose/random.js';
import { replaySse } from '../helpers/replaySse.js';

/**
 * The completions and responses streams (test/fixtures/streams/<api>/): each recorded-format
 * fixture replayed whole, byte by byte and at seeded random cuts gives its expected content,
 * reasoning, finish reason and usage, as the chat fixtures do in streamAccumulator.test.ts.
 */

type Expected = Pick<
  StreamAccumulation,
  'content' | 'reasoning' | 'finishReason' | 'stopReason' | 'outputTokens' | 'outputTokensSource' | 'promptTokens'
> & { error?: string };

function replay(api: StreamApi, bytes: Uint8Array, cuts: number[]): StreamAccumulation {
  return replaySse(bytes, cuts, new StreamAccumulator(undefined, undefined, api));
}

function check(want: Expected, result: StreamAccumulation, how: string): void {
  const got = {
    content: result.content,
    reasoning: result.reasoning,
    finishReason: result.finishReason,
    stopReason: result.stopReason,
    outputTokens: result.outputTokens,
    outputTokensSource: result.outputTokensSource,
    promptTokens: result.promptTokens,
    ...(want.error !== undefined ? { error: result.error?.type } : {}),
  };
  assert.deepEqual(got, want, how);
  if (want.error === undefined) {
    assert.equal(result.error, null, `${how}: no error, got ${JSON.stringify(result.error)}`);
    assert.equal(result.endedCleanly, true, `${how}: ended cleanly`);
  }
}

for (const api of ['completions', 'responses'] as const) {
  const dir = `${repoPath('test', 'fixtures', 'streams', api)}/`;
  const expected = JSON.parse(readFileSync(`${dir}expected.json`, 'utf8')) as Record<string, Expected>;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sse'))
    .sort();

  describe(`${api} fixtures`, () => {
    test('every fixture has an expectation and every expectation a fixture', () => {
      assert.deepEqual(files, Object.keys(expected).sort());
    });

    for (const name of files) {
      const bytes = new Uint8Array(readFileSync(`${dir}${name}`));
      const want = expected[name] as Expected;

      test(`${name}: whole, as text, byte by byte, 200 seeded random splits`, () => {
        check(want, replay(api, bytes, []), 'whole');
        check(want, accumulateSseText(new TextDecoder().decode(bytes), api), 'accumulateSseText');
        check(
          want,
          replay(
            api,
            bytes,
            Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
          ),
          'byte by byte',
        );
        const random = rng(name.length * 7919 + bytes.length);
        for (let round = 0; round < 200; round++) {
          const cuts = new Set<number>();
          const pieces = 1 + Math.floor(random() * 40);
          for (let k = 0; k < pieces; k++) cuts.add(1 + Math.floor(random() * (bytes.length - 1)));
          const sorted = [...cuts].sort((a, b) => a - b);
          check(want, replay(api, bytes, sorted), `cuts ${sorted.join(',')}`);
        }
      });
    }

    test('read as chat, the same bytes carry no text: the API decides how a stream is read', () => {
      for (const name of files) {
        const chat = accumulateSseText(readFileSync(`${dir}${name}`, 'utf8'));
        if (api === 'responses') assert.equal(chat.content, '', name);
      }
    });
  });
}

describe('the analysis sees the same text whatever the API', () => {
  const read = (api: StreamApi, file: string) =>
    accumulateSseText(readFileSync(repoPath('test', 'fixtures', 'streams', api, file), 'utf8'), api);

  test('the healthy streams are ok, the looping ones fail', () => {
    assert.equal(analyzeText(read('completions', 'vllm.sse').content).verdict, 'ok');
    assert.equal(analyzeText(read('responses', 'vllm-reasoning.sse').content).verdict, 'ok');
    assert.equal(analyzeText(read('completions', 'vllm-loop.sse').content).verdict, 'fail');
    assert.equal(analyzeText(read('responses', 'openai-loop-incomplete.sse').content).verdict, 'fail');
  });

  test('a responses stream ends with its last event: done, so the client does not wait for more', () => {
    const acc = new StreamAccumulator(undefined, undefined, 'responses');
    const text = readFileSync(repoPath('test', 'fixtures', 'streams', 'responses', 'vllm-reasoning.sse'), 'utf8');
    const cut = text.indexOf('event: response.completed');
    assert.equal(acc.pushText(text.slice(0, cut), 0).done, false);
    assert.equal(acc.pushText(text.slice(cut), 1).done, true);
    assert.equal(acc.result().servedModel, 'Qwen/Qwen3-8B');
  });
});

describe('a captured stream (analyze) is read by its API', () => {
  const fixture = (api: string, file: string) => readFileSync(repoPath('test', 'fixtures', 'streams', api, file), 'utf8');

  test('responses captures are recognised, every chat fixture stays chat', () => {
    assert.equal(apiOfCapture(fixture('responses', 'vllm-reasoning.sse')), 'responses');
    assert.equal(apiOfCapture(fixture('completions', 'vllm.sse')), 'chat');
    const chatDir = repoPath('test', 'fixtures', 'streams');
    for (const file of readdirSync(chatDir).filter((f) => f.endsWith('.sse')))
      assert.equal(apiOfCapture(readFileSync(`${chatDir}/${file}`, 'utf8')), 'chat', file);
  });

  test('analyze judges the looping captures of both APIs as failed, the healthy ones ok', () => {
    const loop = analyzeCapture(fixture('responses', 'openai-loop-incomplete.sse'), 'content');
    assert.deepEqual([loop.format, loop.analysis.verdict, loop.finishReason, loop.notes], ['sse', 'fail', 'length', []]);
    assert.equal(analyzeCapture(fixture('completions', 'vllm-loop.sse'), 'content').analysis.verdict, 'fail');
    const healthy = analyzeCapture(fixture('responses', 'vllm-reasoning.sse'), 'both');
    assert.equal(healthy.analysis.verdict, 'ok');
    assert.equal(analyzeCapture(fixture('completions', 'vllm.sse'), 'content').analysis.verdict, 'ok');
  });
});

describe('ApiChunks', () => {
  test('chat chunks pass as they came (the same object)', () => {
    const chunk = { choices: [{ delta: { content: 'x' } }] };
    assert.equal(new ApiChunks().map(chunk).chunk, chunk);
    assert.equal(new ApiChunks('chat').map(chunk).chunk, chunk);
  });

  test('completions token_logprobs become the logprobs the trace reads', () => {
    const acc = new StreamAccumulator(undefined, undefined, 'completions');
    const chunk = (text: string, lp: number) => ({ choices: [{ index: 0, text, logprobs: { tokens: [text], token_logprobs: [lp] } }] });
    acc.pushText(`data: ${JSON.stringify(chunk('a', -0.5))}\n\ndata: ${JSON.stringify(chunk('b', -1.5))}\n\ndata: [DONE]\n\n`, 0);
    const result = acc.result();
    assert.equal(result.content, 'ab');
    assert.equal(result.logprobs?.tokens, 2);
  });

  test('responses: a summary after the reasoning text is not counted twice; before it, it is the reasoning', () => {
    const ev = (type: string, delta: string) => `event: ${type}\ndata: ${JSON.stringify({ type, delta })}\n\n`;
    const both = accumulateSseText(
      ev('response.reasoning_text.delta', 'think') +
        ev('response.reasoning_summary_text.delta', 'summary') +
        ev('response.output_text.delta', 'x'),
      'responses',
    );
    assert.deepEqual([both.reasoning, both.content], ['think', 'x']);
    const summaryOnly = accumulateSseText(ev('response.reasoning_summary_text.delta', 'summary'), 'responses');
    assert.equal(summaryOnly.reasoning, 'summary');
  });

  test('responses: an error event, with or without its event line, is a server error naming the message', () => {
    const body = { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down' };
    for (const text of [`event: error\ndata: ${JSON.stringify(body)}\n\n`, `data: ${JSON.stringify(body)}\n\n`]) {
      const r = accumulateSseText(text, 'responses');
      assert.equal(r.error?.type, 'server_error_event');
      assert.match(r.error?.message ?? '', /Slow down/);
    }
  });

  test('responses: incomplete for a content filter keeps its reason; a completed response is stop', () => {
    const done = (status: string, reason: string | null) =>
      `data: ${JSON.stringify({ type: `response.${status}`, response: { status, incomplete_details: reason ? { reason } : null, usage: { input_tokens: 3, output_tokens: 2 } } })}\n\n`;
    assert.equal(accumulateSseText(done('incomplete', 'content_filter'), 'responses').finishReason, 'content_filter');
    const completed = accumulateSseText(done('completed', null), 'responses');
    assert.deepEqual([completed.finishReason, completed.outputTokens, completed.promptTokens, completed.done], ['stop', 2, 3, true]);
  });

  test('non-streamed answers of both APIs are read as a chat completion', () => {
    const completion = accumulateChatCompletionText(
      JSON.stringify({
        object: 'text_completion',
        model: 'm',
        choices: [{ index: 0, text: 'Hello there', finish_reason: 'length' }],
        usage: { completion_tokens: 2, prompt_tokens: 4 },
      }),
      undefined,
      'completions',
    );
    assert.deepEqual([completion.content, completion.finishReason, completion.outputTokens], ['Hello there', 'length', 2]);
    const response = accumulateChatCompletionText(
      JSON.stringify({
        object: 'response',
        model: 'm',
        status: 'incomplete',
        incomplete_details: { reason: 'max_output_tokens' },
        output: [
          { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'hmm' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Answer' }] },
        ],
        usage: { input_tokens: 5, output_tokens: 7 },
      }),
      undefined,
      'responses',
    );
    assert.deepEqual(
      [response.content, response.reasoning, response.finishReason, response.outputTokens, response.promptTokens, response.servedModel],
      ['Answer', 'hmm', 'length', 7, 5, 'm'],
    );
  });
});
