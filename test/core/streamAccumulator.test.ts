import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { repoPath } from '../helpers/repoRoot.js';
import {
  StreamAccumulator,
  accumulateSseText,
  accumulateSseBytes,
  accumulateChatCompletion,
  accumulateChatCompletionText,
  type StreamAccumulation,
} from '../../src/core/streamAccumulator.js';
import { createRng as rng } from '../../src/prose/random.js';
import { replaySse } from '../helpers/replaySse.js';

const FIXTURES = repoPath('test', 'fixtures', 'streams') + '/';

interface Expected {
  content: string;
  reasoning: string;
  finishReason: string | null;
  stopReason: string | number | null;
  outputTokens: number;
  outputTokensSource: 'usage' | 'deltas';
  promptTokens: number | null;
  comments?: number;
  error?: string;
}

const expected = JSON.parse(readFileSync(`${FIXTURES}expected.json`, 'utf8')) as Record<string, Expected>;
const fixtureFiles = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.sse'))
  .sort();

/** Replays bytes cut at the given offsets; also checks the per-push deltas add up. */
function replay(bytes: Uint8Array, cuts: number[]): StreamAccumulation {
  return replaySse(bytes, cuts);
}

function check(name: string, result: StreamAccumulation, how: string): void {
  const want = expected[name];
  assert.ok(want, `${name} has an expectation`);
  const got = {
    content: result.content,
    reasoning: result.reasoning,
    finishReason: result.finishReason,
    stopReason: result.stopReason,
    outputTokens: result.outputTokens,
    outputTokensSource: result.outputTokensSource,
    promptTokens: result.promptTokens,
    ...(want.comments !== undefined ? { comments: result.comments } : {}),
    ...(want.error !== undefined ? { error: result.error?.type } : {}),
  };
  assert.deepEqual(got, want, `${name} (${how})`);
  if (want.error === undefined) {
    assert.equal(result.error, null, `${name} (${how}): no error, got ${JSON.stringify(result.error)}`);
    assert.equal(result.endedCleanly, true, `${name} (${how}) ended cleanly`);
  }
}

describe('recorded-format fixtures', () => {
  test('every fixture has an expectation and every expectation a fixture', () => {
    assert.deepEqual(fixtureFiles, Object.keys(expected).sort());
  });

  for (const name of fixtureFiles) {
    const bytes = new Uint8Array(readFileSync(`${FIXTURES}${name}`));

    test(`${name}: all at once, as text, one byte at a time`, () => {
      check(name, replay(bytes, []), 'all at once');
      check(name, accumulateSseBytes(bytes), 'accumulateSseBytes');
      check(name, accumulateSseText(new TextDecoder().decode(bytes)), 'accumulateSseText');
      check(
        name,
        replay(
          bytes,
          Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
        ),
        'byte by byte',
      );
    });

    test(`${name}: split in two at every byte boundary`, () => {
      for (let i = 1; i < bytes.length; i++) check(name, replay(bytes, [i]), `split at ${i}`);
    });

    test(`${name}: 300 seeded random splits`, () => {
      const random = rng(name.length * 7919 + bytes.length);
      for (let round = 0; round < 300; round++) {
        const pieces = 1 + Math.floor(random() * 40);
        const cuts = new Set<number>();
        for (let k = 0; k < pieces; k++) cuts.add(1 + Math.floor(random() * (bytes.length - 1)));
        const sorted = [...cuts].sort((a, b) => a - b);
        check(name, replay(bytes, sorted), `cuts ${sorted.join(',')}`);
      }
    });
  }
});

function sse(...events: unknown[]): string {
  return events.map((e) => (typeof e === 'string' ? e : `data: ${JSON.stringify(e)}\n\n`)).join('');
}

function contentChunk(content: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null, ...extra }] };
}

/** Bytes that matter to the SSE, JSON and UTF-8 layers: LF, CR, quote, brace, colon, a UTF-8 lead byte. */
const SPECIAL = [0x0a, 0x0d, 0x22, 0x7b, 0x7d, 0x3a, 0xf0, 0x9f];

describe('never throws', () => {
  test('fixtures with random bytes flipped, dropped or inserted, at random cuts', () => {
    const random = rng(20261129);
    const sources = fixtureFiles.map((f) => new Uint8Array(readFileSync(`${FIXTURES}${f}`)));
    for (let round = 0; round < 2000; round++) {
      const src = sources[round % sources.length] as Uint8Array;
      const bytes = Array.from(src);
      const edits = 1 + Math.floor(random() * 8);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * bytes.length);
        const kind = random();
        if (kind < 0.4) bytes[at] = Math.floor(random() * 256);
        else if (kind < 0.7) bytes.splice(at, 1 + Math.floor(random() * 20));
        else bytes.splice(at, 0, SPECIAL[Math.floor(random() * SPECIAL.length)] as number); // structural bytes
      }
      const mutated = Uint8Array.from(bytes);
      const cuts = [...new Set(Array.from({ length: 5 }, () => Math.floor(random() * mutated.length)))]
        .filter((c) => c > 0)
        .sort((a, b) => a - b);
      const acc = new StreamAccumulator();
      let last = 0;
      for (const cut of [...cuts, mutated.length]) {
        acc.push(mutated.subarray(last, cut), last);
        last = cut;
      }
      acc.end(last);
      const r = acc.result();
      assert.equal(typeof r.content, 'string');
      assert.ok(r.outputTokens >= 0);
      assert.ok(r.error === null || r.error.type === 'malformed' || r.error.type === 'server_error_event');
    }
  });

  test('odd but valid JSON chunks', () => {
    for (const chunk of [
      null,
      [],
      'text',
      7,
      true,
      {},
      { choices: null },
      { choices: [null] },
      { choices: [{ delta: null }] },
      { choices: [{ delta: { content: 5, reasoning_content: {} } }] },
      { choices: [{ delta: {}, finish_reason: 3 }] },
      { usage: 'x' },
      { usage: { completion_tokens: 'many' } },
      { x_groq: { usage: null } },
      { timings: { predicted_n: 'x' } },
      { error: null, choices: [{ delta: { content: 'ok' } }] },
    ]) {
      const r = accumulateSseText(`data: ${JSON.stringify(chunk)}\n\n`);
      assert.ok(r.error === null || r.error.type === 'malformed', JSON.stringify(chunk));
    }
    assert.equal(accumulateSseText('data: {"error":null,"choices":[{"delta":{"content":"ok"}}]}\n\n').content, 'ok');
  });
});

describe('StreamAccumulator', () => {
  test('timestamps: first token, first content, gaps between token-carrying chunks', () => {
    const acc = new StreamAccumulator();
    const enc = new TextEncoder();
    acc.push(enc.encode(sse({ choices: [{ index: 0, delta: { role: 'assistant' } }] })), 100);
    acc.push(enc.encode(sse({ choices: [{ index: 0, delta: { reasoning_content: 'hm' } }] })), 250);
    acc.push(enc.encode(': keep-alive\n\n'), 900);
    acc.push(enc.encode(sse(contentChunk('a'))), 1250);
    acc.push(enc.encode(sse(contentChunk('b'), contentChunk('c'))), 1300);
    acc.end(1400);
    const r = acc.result();
    assert.equal(r.firstTokenAtMs, 250);
    assert.equal(r.firstContentAtMs, 1250);
    assert.equal(r.lastTokenAtMs, 1300);
    assert.deepEqual(r.gapsMs, [1000, 50, 0]);
    assert.equal(r.maxGapMs, 1000);
    assert.equal(r.chunks, 5);
    assert.equal(r.tokenDeltas, 4);
    assert.equal(r.comments, 1);
    assert.equal(r.outputTokens, 4);
    assert.equal(r.outputTokensSource, 'deltas');
    assert.equal(r.endedCleanly, false);
  });

  test('per-push delta reports tokens so far and the push that saw [DONE]', () => {
    const acc = new StreamAccumulator();
    const d1 = acc.pushText(sse(contentChunk('x'), contentChunk('y')), 0);
    assert.deepEqual({ c: d1.contentDelta, t: d1.tokens, n: d1.tokenChunks, done: d1.done }, { c: 'xy', t: 2, n: 2, done: false });
    const d2 = acc.pushText(sse({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 9 } }, 'data: [DONE]\n\n'), 1);
    assert.equal(d2.tokens, 9);
    assert.equal(d2.done, true);
    assert.equal(acc.isDone(), true);
  });

  test('a UTF-8 character split over four pushes is decoded once', () => {
    const bytes = new TextEncoder().encode(sse(contentChunk('🙂'), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
    const at = Buffer.from(bytes).indexOf(Buffer.from('🙂'));
    const acc = new StreamAccumulator();
    acc.push(bytes.subarray(0, at + 1), 0);
    acc.push(bytes.subarray(at + 1, at + 2), 0);
    acc.push(bytes.subarray(at + 2, at + 3), 0);
    acc.push(bytes.subarray(at + 3), 0);
    acc.end(0);
    assert.equal(acc.result().content, '🙂');
  });

  test('a byte-order mark before the first event is ignored', () => {
    const r = accumulateSseText(`\uFEFF${sse(contentChunk('ok'), 'data: [DONE]\n\n')}`);
    assert.equal(r.content, 'ok');
    assert.equal(r.error, null);
  });

  test('non-JSON data and non-object JSON become malformed values, never throws', () => {
    const r = accumulateSseText(sse('data: 42\n\n', contentChunk('k'), 'data: {"a":\n\n', 'data: [DONE]\n\n'));
    assert.equal(r.error?.type, 'malformed');
    assert.equal(r.badEvents, 1);
    assert.equal(r.content, 'k');
  });

  test('an `event: error` event is a server_error_event', () => {
    const r = accumulateSseText(sse(contentChunk('a'), 'event: error\ndata: {"error":{"message":"overloaded","code":529}}\n\n'));
    assert.equal(r.error?.type, 'server_error_event');
    assert.match(r.error.message, /overloaded/);
  });

  test('an error object beside choices still records the finish reason (OpenRouter mid-stream error)', () => {
    const r = accumulateSseText(
      sse({
        error: { code: 502, message: 'Provider disconnected' },
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      }),
    );
    assert.equal(r.error?.type, 'server_error_event');
    assert.equal(r.finishReason, 'error');
  });

  test('a bare vLLM ErrorResponse chunk is a server_error_event', () => {
    const r = accumulateSseText(sse({ object: 'error', message: 'max_tokens too large', type: 'BadRequestError', code: 400 }));
    assert.equal(r.error?.type, 'server_error_event');
    assert.match(r.error.message, /max_tokens too large/);
  });

  test('events after [DONE] are ignored', () => {
    const r = accumulateSseText(sse(contentChunk('a'), 'data: [DONE]\n\n', contentChunk('late')));
    assert.equal(r.content, 'a');
    assert.equal(r.done, true);
  });

  test('a last [DONE] without its blank line or newline still counts', () => {
    const r = accumulateSseText(`${sse(contentChunk('a'))}data: [DONE]`);
    assert.equal(r.done, true);
    assert.equal(r.endedCleanly, true);
  });

  test('a stream cut inside a data line is not malformed, just not finished', () => {
    const full = sse(contentChunk('a'), contentChunk('bcd'));
    const r = accumulateSseText(full.slice(0, full.length - 20));
    assert.equal(r.content, 'a');
    assert.equal(r.error, null);
    assert.equal(r.endedCleanly, false);
  });

  test('reasoning sent as both reasoning_content and reasoning is taken once', () => {
    const r = accumulateSseText(sse({ choices: [{ index: 0, delta: { reasoning_content: 'r', reasoning: 'r' } }] }));
    assert.equal(r.reasoning, 'r');
  });

  test('a completion_tokens of 0 beside real text is not believed', () => {
    const r = accumulateSseText(sse(contentChunk('a'), contentChunk('b'), { choices: [], usage: { completion_tokens: 0 } }));
    assert.equal(r.outputTokens, 2);
    assert.equal(r.outputTokensSource, 'deltas');
  });

  test('continuous usage stats: the last usage wins', () => {
    const r = accumulateSseText(
      sse(
        { ...contentChunk('a'), usage: { prompt_tokens: 5, completion_tokens: 1 } },
        { ...contentChunk('b'), usage: { prompt_tokens: 5, completion_tokens: 2 } },
      ),
    );
    assert.equal(r.outputTokens, 2);
    assert.equal(r.outputTokensSource, 'usage');
  });

  test('legacy completions chunks (choices[].text) are read as content', () => {
    const r = accumulateSseText(sse({ choices: [{ index: 0, text: 'plain', finish_reason: null }] }));
    assert.equal(r.content, 'plain');
  });

  test('pushes after end() are ignored', () => {
    const acc = new StreamAccumulator();
    acc.pushText(sse(contentChunk('a')), 0);
    acc.end(1);
    acc.pushText(sse(contentChunk('b')), 2);
    assert.equal(acc.result().content, 'a');
  });
});

describe('accumulateChatCompletion (non-streamed body)', () => {
  test('a chat completion with usage', () => {
    const r = accumulateChatCompletion({
      id: 'x',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi there', reasoning_content: 'why' },
          finish_reason: 'stop',
          stop_reason: 128009,
        },
      ],
      usage: { prompt_tokens: 4, completion_tokens: 7, total_tokens: 11 },
    });
    assert.equal(r.content, 'Hi there');
    assert.equal(r.reasoning, 'why');
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.stopReason, 128009);
    assert.equal(r.outputTokens, 7);
    assert.equal(r.outputTokensSource, 'usage');
    assert.equal(r.promptTokens, 4);
    assert.equal(r.error, null);
  });

  test('without usage the message counts as one delta', () => {
    const r = accumulateChatCompletion({ choices: [{ message: { content: 'x' }, finish_reason: 'length' }] });
    assert.equal(r.outputTokens, 1);
    assert.equal(r.outputTokensSource, 'deltas');
  });

  test('an error body and garbage text become error values', () => {
    assert.equal(accumulateChatCompletion({ error: { message: 'bad model' } }).error?.type, 'server_error_event');
    assert.equal(accumulateChatCompletion({ foo: 1 }).error?.type, 'malformed');
    assert.equal(accumulateChatCompletion('x').error?.type, 'malformed');
    assert.equal(accumulateChatCompletionText('<html>').error?.type, 'malformed');
    assert.equal(accumulateChatCompletionText('{"choices":[{"message":{"content":"a"}}]}').content, 'a');
  });
});

test('text of thousands of deltas reads back whole, before and after more deltas arrive', () => {
  const acc = new StreamAccumulator();
  const tokens = Array.from({ length: 2500 }, (_, i) => `t${i} `);
  const event = (field: string, text: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { [field]: text } }] })}\n\n`;
  for (const t of tokens.slice(0, 1500)) acc.pushText(event('content', t) + event('reasoning_content', t.toUpperCase()), 0);
  assert.equal(acc.result().content, tokens.slice(0, 1500).join(''));
  for (const t of tokens.slice(1500)) acc.pushText(event('content', t), 0);
  acc.pushText('data: [DONE]\n\n', 0);
  acc.end(0);
  assert.equal(acc.result().content, tokens.join(''));
  assert.equal(acc.result().reasoning, tokens.slice(0, 1500).join('').toUpperCase());
});

test('onContent hears each chunk content delta once, in order, the multi-line data fallback and every fixture included', () => {
  const heard: string[] = [];
  const acc = new StreamAccumulator(undefined, (delta) => heard.push(delta));
  const chunk = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });
  // one event of three JSON lines (a capture with its blank lines lost), then a reasoning-only
  // chunk, which is not content, then an ordinary event
  acc.pushText(`data: ${chunk('a')}\ndata: ${chunk('bc')}\ndata: ${chunk('')}\n\n`, 0);
  acc.pushText(`data: ${JSON.stringify({ choices: [{ delta: { reasoning_content: 'hm' } }] })}\n\ndata: ${chunk('d')}\n\n`, 0);
  acc.end(0);
  assert.deepEqual(heard, ['a', 'bc', 'd']);
  for (const file of fixtureFiles) {
    const parts: string[] = [];
    const each = new StreamAccumulator(undefined, (delta) => parts.push(delta));
    each.push(readFileSync(FIXTURES + file), 0);
    each.end(0);
    assert.equal(parts.join(''), each.result().content, file);
    assert.ok(!parts.includes(''), `${file}: no empty deltas`);
  }
});
