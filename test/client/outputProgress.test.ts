// The idle rule of httpExchange (issue 19 §5): only output resets the timer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataCarriesOutput, OutputProgress, outputOfData } from '../../src/client/outputProgress.js';
import { NON_SSE_PROGRESS_BYTES } from '../../src/client/streamChat.js';

test('a data payload carries output when its delta has text or it ends the answer; usage, errors and junk do not', () => {
  const cases: Array<[string, boolean]> = [
    ['[DONE]', true],
    ['{"choices":[{"index":0,"delta":{"content":"hi"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"reasoning_content":"hm"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"reasoning":"hm"}}]}', true],
    ['{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"hi"}]}}]}', true],
    ['{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}', true],
    ['{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}', true],
    ['{"choices":[{"index":0,"message":{"content":"whole"}}]}', true],
    // issue 34: a server sending these every 0.5 s held a conformance request to totalSeconds
    ['{"choices":[],"usage":{"completion_tokens":3}}', false],
    ['{"error":{"message":"overloaded"}}', false],
    ['x', false],
    ['not json', false],
    ['42', false],
    ['{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}', false],
    ['{"choices":[{"index":0,"delta":{"role":"assistant"}}]}', false],
    ['{"choices":[{"index":0,"delta":{"content":""}}]}', false],
    ['{"choices":[]}', false],
    ['{}', false],
    ['', false],
  ];
  for (const [payload, carries] of cases) assert.equal(dataCarriesOutput(payload), carries, payload);
});

test('output bytes are the UTF-8 bytes of the text; an end counts once, usage and junk never', () => {
  assert.deepEqual(outputOfData('{"choices":[{"delta":{"content":"é中"}}]}'), { bytes: 5, ends: false });
  assert.deepEqual(outputOfData('{"choices":[{"delta":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}}]}'), {
    bytes: 3,
    ends: false,
  });
  const p = new OutputProgress(true);
  assert.equal(p.push('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n', 60), true, 'the first end');
  assert.equal(p.push('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n', 60), false, 'not again');
  assert.equal(p.push('data: [DONE]\n\n', 14), false, 'the answer had ended already');
  for (const junk of ['data: x', 'data: {"choices":[],"usage":{"completion_tokens":1}}', ': ping', 'data: {"choices":[{"delta":{}}]}'])
    assert.equal(p.push(`${junk}\n\n`, junk.length + 2), false, junk);
  assert.equal(p.outputBytes, 0);
  assert.equal(p.push('data: {"choices":[{"index":0,"delta":{"content":"abc"}}]}\n\n', 60), true);
  assert.equal(p.outputBytes, 3);
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
