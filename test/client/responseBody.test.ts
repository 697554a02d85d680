import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyDecoder } from '../../src/client/bodyDecoder.js';
import { ResponseBody } from '../../src/client/responseBody.js';
import { responseHead } from '../../src/client/responseHead.js';

const SSE = Buffer.from(
  [
    ': ping',
    '',
    'data: {"choices":[{"delta":{"content":"é€"}}]}',
    '',
    'data: {"choices":[{"delta":{"content":"😀 sk-secret"},"finish_reason":"stop"}]}',
    '',
    'data: [DONE]',
    '',
    '',
  ].join('\r\n'),
  'utf8',
);

function body(contentType = 'text/event-stream', maxBytes = 1 << 20): ResponseBody {
  const decoder = new BodyDecoder({ bytes: () => {}, end: () => {}, error: () => {} });
  const b = new ResponseBody(decoder, maxBytes, (t) => t.replaceAll('sk-secret', '[redacted]'));
  assert.equal(b.start(responseHead(200, { 'content-type': contentType })), null);
  return b;
}

test('an event stream read in two pieces cut at every byte gives the same text, chunks and end', () => {
  for (let cut = 0; cut <= SSE.length; cut++) {
    const b = body();
    const first = b.read(SSE.subarray(0, cut), 1);
    const second = b.read(SSE.subarray(cut), 2);
    const acc = b.accumulation(3, false);
    assert.equal(acc.content, 'é€😀 sk-secret', `cut at ${cut}`);
    assert.equal(acc.chunks, 2);
    assert.equal(acc.comments, 1);
    assert.equal(acc.endedCleanly, true);
    assert.equal(b.rawBytes, SSE.length);
    assert.equal((first.delta?.done ?? false) || (second.delta?.done ?? false), true, `cut at ${cut}: [DONE] seen`);
  }
});

test('a mislabelled stream is sniffed as SSE after leading whitespace read alone', () => {
  const b = body('text/plain');
  b.read(Buffer.from('\r\n'), 1);
  assert.equal(b.mode, 'sniff');
  b.read(SSE, 2);
  assert.equal(b.mode, 'sse');
  assert.equal(b.accumulation(3, false).content, 'é€😀 sk-secret');
});

test('a stream over maxBytes ends the read as too_large, keeping what fit', () => {
  const b = body('text/event-stream', 60);
  const step = b.read(SSE, 1);
  assert.deepEqual(step.end, { type: 'too_large', message: "response over 60 bytes (raise the probe's maxResponseBytes)" });
});

test('an unknown Content-Encoding is refused by start, naming it', () => {
  const decoder = new BodyDecoder({ bytes: () => {}, end: () => {}, error: () => {} });
  const b = new ResponseBody(decoder, 100, (t) => t);
  assert.match(b.start(responseHead(200, { 'content-encoding': 'zstd' })) ?? '', /encoded as "zstd"/);
});
