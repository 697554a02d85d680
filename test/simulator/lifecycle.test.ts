import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startSimulator } from '../../src/simulator/index.js';
import { postChat, readStream, SseReader, summarize, waitFor } from './sseHelpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('simulator lifecycle', { timeout: 30_000 }, () => {
  it('records the token at which the client went away and stops writing', async () => {
    const sim = await startSimulator({ tokensPerSecond: 2000 });
    try {
      const controller = new AbortController();
      const reader = new SseReader(await postChat(sim, { model: 'collapse-sentence@500', max_tokens: 8000 }, controller.signal));
      let received = 0;
      while (received < 300) {
        const event = await reader.next(2000);
        assert.ok(typeof event === 'object');
        if (summarize([event.data]).contentDeltas.length === 1) received++;
      }
      controller.abort();
      const record = sim.requests.at(-1);
      assert.ok(record);
      await waitFor(() => record.clientClosedAtToken !== null);
      const closedAt = record.clientClosedAtToken ?? -1;
      // Paced at 2000 tok/s the server is at most a tick or two ahead of the reader.
      assert.ok(closedAt >= 300 && closedAt < 500, `closed at ${closedAt}`);
      assert.equal(record.finished, false);
      const sentAtClose = record.tokensSent;
      await sleep(200);
      assert.equal(record.tokensSent, sentAtClose, 'no writes after the client left');
    } finally {
      await sim.close();
    }
  });

  it('close() ends endless and stalled streams and idle keep-alive connections promptly', async () => {
    const sim = await startSimulator({ tokensPerSecond: 0 });
    // A finished request leaves an idle keep-alive socket behind.
    await readStream(await postChat(sim, { model: 'healthy', max_tokens: 5 }));
    const forever = new SseReader(await postChat(sim, { model: 'fault-forever' }));
    const stalled = new SseReader(await postChat(sim, { model: 'fault-stall@5' }));
    const hanging = postChat(sim, { model: 'fault-stall@5', stream: false });
    assert.ok(typeof (await forever.next(2000)) === 'object');
    assert.ok(typeof (await stalled.next(2000)) === 'object');
    await sleep(50);

    const drainToEnd = async (reader: SseReader) => {
      for (;;) {
        const event = await reader.next(3000);
        if (event === 'idle') return 'idle';
        if (event === 'end') return 'end';
      }
    };
    const started = Date.now();
    const endings = Promise.allSettled([drainToEnd(forever), drainToEnd(stalled), hanging]);
    await sim.close();
    const results = await endings;
    assert.ok(Date.now() - started < 2000, `close took ${Date.now() - started} ms`);
    for (const result of results) {
      // Either the read failed (connection destroyed) or ended; it must not go idle.
      assert.ok(result.status === 'rejected' || result.value === 'end', JSON.stringify(result));
    }
    // Closed by the server, not by the clients.
    for (const record of sim.requests.slice(1)) assert.equal(record.clientClosedAtToken, null);
    await sim.close(); // idempotent
  });

  it('paces tokens at the configured rate (2000 tok/s within ±20%)', async () => {
    const sim = await startSimulator({ tokensPerSecond: 2000 });
    try {
      const reader = new SseReader(await postChat(sim, { model: 'healthy', max_tokens: 2000 }));
      let first = 0;
      let last = 0;
      let tokens = 0;
      for (;;) {
        const event = await reader.next(2000);
        if (event === 'end') break;
        assert.ok(typeof event === 'object');
        if (summarize([event.data]).contentDeltas.length === 1) {
          tokens++;
          last = performance.now();
          if (tokens === 1) first = last;
        }
      }
      assert.equal(tokens, 2000);
      const seconds = (last - first) / 1000;
      const rate = (tokens - 1) / seconds;
      assert.ok(rate > 1600 && rate < 2400, `rate ${rate.toFixed(0)} tok/s over ${seconds.toFixed(3)} s`);
    } finally {
      await sim.close();
    }
  });

  it('keeps a bounded request log, newest last', async () => {
    const sim = await startSimulator();
    try {
      for (let i = 0; i < 205; i++) {
        const response = await postChat(sim, { model: `short@${i % 3}`, stream: false });
        await response.text();
      }
      assert.equal(sim.requests.length, 200);
      assert.equal(sim.requests.at(-1)?.model, `short@${204 % 3}`);
      assert.ok(sim.requests.every((record) => record.finished && record.stream === false));
    } finally {
      await sim.close();
    }
  });
});
