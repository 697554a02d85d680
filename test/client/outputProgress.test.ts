// The idle rule of httpExchange (issue 19 §5): only output resets the timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataCarriesOutput, OutputProgress } from '../../src/client/outputProgress.js';
import { NON_SSE_PROGRESS_BYTES } from '../../src/client/streamChat.js';

test('a data payload carries output when it has a token, a usage or error object, or is [DONE]', () => {
  const cases: Array<[string, boolean]> = [
    ['[DONE]', true],
    ['{"choices":[{"index":0,"delta":{"content":"hi"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"reasoning_content":"hm"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"reasoning":"hm"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}', true],
    ['{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}', true],
    ['{"choices":[],"usage":{"completion_tokens":3}}', true],
    ['{"error":{"message":"overloaded"}}', true],
    ['not json', true],
    ['{"choices":[{"index":0,"delta":{"role":"assistant"}}]}', false],
    ['{"choices":[{"index":0,"delta":{"content":""}}]}', false],
    ['{"choices":[]}', false],
    ['{}', false],
    ['', false],
  ];
  for (const [payload, carries] of cases) assert.equal(dataCarriesOutput(payload), carries, payload);
});

test('an event stream progresses at a complete data event with output, never at comments or half an event', () => {
  const p = new OutputProgress(true);
  assert.equal(p.push(': ping\n\n', 8), false);
  const event = 'data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n';
  for (const ch of event.slice(0, -2)) assert.equal(p.push(ch, 1), false, 'not before the line ends');
  assert.equal(p.bytesSinceProgress, 8 + event.length - 2);
  assert.equal(p.push('\n\n', 2), true);
  assert.equal(p.bytesSinceProgress, 0);
  assert.equal(p.push('data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\r\n', 50), true, 'CRLF lines too');
});

test('a body that is not an event stream progresses by NON_SSE_PROGRESS_BYTES', () => {
  const p = new OutputProgress(false);
  assert.equal(p.push('x'.repeat(NON_SSE_PROGRESS_BYTES - 1), NON_SSE_PROGRESS_BYTES - 1), false);
  assert.equal(p.push('x', 1), true);
  assert.match(p.missing, /fewer than 1024 bytes of body/);
});
