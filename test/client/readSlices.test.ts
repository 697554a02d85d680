import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadPacer } from '../../src/client/readPacer.js';
import { countLoopTurns } from '../helpers/loopTurns.js';
import { READ_SLICE_BYTES, streamChat } from '../../src/client/streamChat.js';
import type { StreamProgress } from '../../src/client/streamTypes.js';
import { chunk, finishChunk, sseHeaders, startLoopback, usageChunk } from './loopback.js';

test('a large network read is parsed in slices, the event loop turning in between (a pacer with no budget: one slice a turn), and nothing is lost', {
  timeout: 10_000,
}, async () => {
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
  const loop = countLoopTurns();
  const progress: Array<StreamProgress & { turn: number }> = [];
  try {
    const result = await streamChat(
      { url: server.url, headers: {}, body: { model: 'm', stream: true, messages: [] } },
      {
        timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 },
        onProgress: (p) => progress.push({ ...p, turn: loop.turns }),
        pacer: new ReadPacer(0),
      },
    );
    assert.equal(result.error, null);
    assert.equal(result.content, words.join(''), 'every delta read, in order');
    assert.equal(result.outputTokens, words.length);
    assert.equal(progress.map((p) => p.contentDelta).join(''), result.content, 'onProgress saw all of it');
  } finally {
    loop.stop();
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

test('the pacer spends its budget per turn, one slice a reader in turn, and always at least one slice', async () => {
  let clock = 0;
  const pacer = new ReadPacer(10, () => clock);
  const log: string[] = [];
  const reader = (name: string, slices: number, msEach: number) => {
    let left = slices;
    return {
      readSlice() {
        clock += msEach;
        log.push(name);
        return --left > 0;
      },
    };
  };
  pacer.enqueue(reader('a', 4, 4));
  pacer.enqueue(reader('b', 2, 4));
  pacer.enqueue(reader('slow', 2, 50));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log, ['a', 'b', 'slow'], 'first turn: round robin until 10 ms are spent');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log.slice(3), ['a', 'b', 'slow']);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log.slice(6), ['a', 'a'], 'b and slow are done: a alone gets the turn');
  assert.equal(pacer.length, 0);
  // a turn whose budget the sockets already spent still reads one slice of the line
  pacer.enqueue(reader('c', 2, 4));
  pacer.charge(() => (clock += 30));
  assert.equal(pacer.hasBudget(), false);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log.slice(8), ['c']);
  assert.equal(pacer.length, 1);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log.slice(9), ['c']);
  assert.equal(pacer.length, 0);
  assert.equal(pacer.hasBudget(), true, 'a new turn, a new budget');
});
