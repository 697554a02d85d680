import { test } from 'node:test';
import assert from 'node:assert/strict';
import { READ_SLICE_BYTES, streamChat } from '../../src/client/streamChat.js';
import type { StreamProgress } from '../../src/client/streamTypes.js';
import { chunk, finishChunk, sseHeaders, startLoopback, usageChunk } from './loopback.js';

test('a large network read is parsed in slices, the event loop turning in between, and nothing is lost', { timeout: 10_000 }, async () => {
  const words = Array.from({ length: 6000 }, (_, i) => ` word${i % 997}`);
  let body = '';
  for (const w of words) body += chunk(w);
  body += finishChunk('stop') + usageChunk(12, words.length) + 'data: [DONE]\n\n';
  assert.ok(body.length > 20 * READ_SLICE_BYTES, 'the body is many slices long');
  const server = await startLoopback((_req, res) => {
    sseHeaders(res);
    res.end(body); // one write: the client gets it in reads of 64 KiB or more
  });
  // a turn counter: setImmediate runs once per turn of the event loop
  let turns = 0;
  let ticking = true;
  const tick = () => {
    turns++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const progress: Array<StreamProgress & { turn: number }> = [];
  try {
    const result = await streamChat(
      { url: server.url, headers: {}, body: { model: 'm', stream: true, messages: [] } },
      { timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 }, onProgress: (p) => progress.push({ ...p, turn: turns }) },
    );
    assert.equal(result.error, null);
    assert.equal(result.content, words.join(''), 'every delta read, in order');
    assert.equal(result.outputTokens, words.length);
    assert.equal(progress.map((p) => p.contentDelta).join(''), result.content, 'onProgress saw all of it');
  } finally {
    ticking = false;
    await server.close();
  }
  // bytes read within one turn of the loop
  const perTurn = new Map<number, number>();
  let before = 0;
  for (const p of progress) {
    perTurn.set(p.turn, (perTurn.get(p.turn) ?? 0) + (p.bytes! - before));
    before = p.bytes!;
  }
  const most = Math.max(...perTurn.values());
  assert.ok(perTurn.size > 10, `the loop turned while the body was read (${perTurn.size} turns)`);
  // one slice when a read arrives (poll phase), one of the backlog (check phase): two at most, whatever the read's size
  assert.ok(most <= 2 * READ_SLICE_BYTES, `at most two slices a turn (${most} bytes)`);
});
