/**
 * Every shape of delta.content: a string, null, or an array of typed parts as Mistral's
 * reasoning models send it (thinking parts with nested text parts are reasoning, text parts
 * are content, other parts are counted and kept out of both), mixed in one stream with plain
 * string deltas. The stream is written here in the recorded format, then split at every byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accumulateChatCompletion, StreamAccumulator } from '../../src/core/streamAccumulator.js';

const chunk = (delta: unknown, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'cmpl-1', object: 'chat.completion.chunk', model: 'magistral-small', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const THINKING = ['The user asks for 1 + 2. ', 'Adding one and two gives three; ', 'I answer with the digit alone — ✓ 完了.'];
const STREAM = [
  chunk({ role: 'assistant', content: '' }),
  ...THINKING.map((t) => chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: t }] }] })),
  chunk({ content: [{ type: 'thinking', thinking: 'a plain string thought. ' }] }),
  chunk({ content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }),
  chunk({ content: 'The answer is ' }),
  chunk({
    content: [
      { type: 'text', text: '3' },
      { type: 'text', text: '.' },
    ],
  }),
  chunk({ content: null }),
  chunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'cmpl-1', choices: [], usage: { prompt_tokens: 12, completion_tokens: 139, total_tokens: 151 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

const REASONING = THINKING.join('') + 'a plain string thought. ';
const CONTENT = 'The answer is 3.';

function read(pieces: Uint8Array[]) {
  const acc = new StreamAccumulator();
  let t = 0;
  for (const p of pieces) acc.push(p, t++);
  acc.end(t);
  return acc.result();
}

describe('content parts', () => {
  const bytes = new TextEncoder().encode(STREAM);

  it('reads a Mistral-style stream exactly: reasoning, content, finish reason, usage, unknown parts counted', () => {
    const r = read([bytes]);
    assert.equal(r.reasoning, REASONING);
    assert.equal(r.content, CONTENT);
    assert.equal(r.finishReason, 'stop');
    assert.equal(r.outputTokens, 139);
    assert.equal(r.unknownContentParts, 1);
    assert.equal(r.error, null);
  });

  it('gives the same result split at every byte', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const r = read([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.equal(r.reasoning, REASONING, `cut at byte ${cut}`);
      assert.equal(r.content, CONTENT, `cut at byte ${cut}`);
    }
    const single = read(Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)));
    assert.equal(single.reasoning + '|' + single.content, REASONING + '|' + CONTENT);
  });

  it('reads the same shapes in a non-streamed answer', () => {
    const r = accumulateChatCompletion({
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: {
            role: 'assistant',
            content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hm.' }] }, { type: 'text', text: 'Yes.' }, { type: 'audio' }],
          },
        },
      ],
    });
    assert.deepEqual([r.reasoning, r.content, r.unknownContentParts, r.finishReason], ['hm.', 'Yes.', 1, 'stop']);
  });

  it('keeps malformed parts out of both channels and counts them', () => {
    const r = read([
      new TextEncoder().encode(
        chunk({ content: [42, { type: 'thinking', thinking: [{ type: 'image' }] }, { type: 'text' }, { type: 'text', text: 'ok' }] }) +
          'data: [DONE]\n\n',
      ),
    ]);
    assert.deepEqual([r.content, r.reasoning, r.unknownContentParts], ['ok', '', 3]);
  });
});
