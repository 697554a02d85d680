import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SseMessage } from '../../src/core/streamAccumulator.js';
import { SseEvents } from '../../src/client/sseEvents.js';

/** The messages of `text` fed in `parts`, then ended. */
function frame(parts: string[]): SseMessage[] {
  const sse = new SseEvents();
  return [...parts.flatMap((p) => sse.feed(p)), ...sse.end()];
}

/** Every way of cutting `text` in two, plus one character at a time. */
function splits(text: string): string[][] {
  const out: string[][] = [];
  for (let cut = 0; cut <= text.length; cut++) out.push([text.slice(0, cut), text.slice(cut)]);
  out.push([...text]);
  return out;
}

const STREAM =
  ': keep-alive\r\n\r\n' +
  'data: {"a":1}\r\n\r\n' +
  'event: error\ndata: {"error":"x"}\n\n' +
  'data: line one\ndata: line two\r\rid: 7\nretry: 10\ndata: [DONE]\n\n';

const EXPECTED: SseMessage[] = [
  { comment: true, data: 'keep-alive' },
  { event: undefined, data: '{"a":1}' },
  { event: 'error', data: '{"error":"x"}' },
  { event: undefined, data: 'line one\nline two' },
  { event: undefined, data: '[DONE]' },
];

test('a stream framed whole gives its comments and events in order', () => {
  assert.deepEqual(frame([STREAM]), EXPECTED);
});

test('cut at every character (a CRLF between CR and LF, inside "data:", inside the blank line) or fed one at a time: the same messages', () => {
  for (const parts of splits(STREAM)) assert.deepEqual(frame(parts), EXPECTED, `cut into ${parts.map((p) => p.length).join('+')}`);
});

test('an event is given only when its blank line arrives', () => {
  const sse = new SseEvents();
  assert.deepEqual(sse.feed('da'), []);
  assert.deepEqual(sse.feed('ta: {"a":1}\r'), []);
  assert.deepEqual(sse.feed('\n'), []);
  assert.deepEqual(sse.feed('\r\n'), [{ event: undefined, data: '{"a":1}' }]);
});

test('three events in one feed come out together', () => {
  const sse = new SseEvents();
  assert.deepEqual(
    sse.feed('data: 1\n\ndata: 2\n\ndata: 3\n\n').map((m) => m.data),
    ['1', '2', '3'],
  );
});

test('the end dispatches a last event without its blank line, or a last line without its line feed', () => {
  assert.deepEqual(frame(['data: [DONE]']), [{ event: undefined, data: '[DONE]' }]);
  assert.deepEqual(frame(['data: [DONE]\n']), [{ event: undefined, data: '[DONE]' }]);
  assert.deepEqual(frame(['data: {"a":1}\n\ndata: {"b"']), [
    { event: undefined, data: '{"a":1}' },
    { event: undefined, data: '{"b"' },
  ]);
  assert.deepEqual(frame(['']), []);
});
