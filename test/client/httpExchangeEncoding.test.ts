import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { startLoopback, type Loopback } from './loopback.js';

const T = { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 };

// A target that compresses an answer it was asked not to compress (a fingerprint read of
// /v1/models behind a gateway): the body is dropped unread. Dropping it used to emit an
// 'error' event nobody listened to, and that ended the daemon (found by bench/faults/stream38.ts).
describe('httpExchange with a body encoded against Accept-Encoding: identity', { timeout: 20_000 }, () => {
  const servers: Loopback[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    await closeHttpDispatchers();
  });

  for (const [encoding, whole] of [
    ['gzip', true],
    ['zstd', true],
    ['gzip', false],
  ] as const) {
    it(`${encoding}, ${whole ? 'all arrived' : 'still arriving'}: malformed naming the encoding, and the process goes on`, async () => {
      const s = await startLoopback((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        if (whole) res.end(Buffer.alloc(600, 1));
        else res.write(Buffer.alloc(600, 1));
        setTimeout(() => res.end(), 300);
      });
      servers.push(s);
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown): void => {
        uncaught.push(err);
      };
      process.on('uncaughtException', onUncaught);
      try {
        const x = await httpExchange({ method: 'GET', url: s.url, headers: {} }, { timeouts: T, maxBytes: 1 << 20 });
        assert.equal(x.error?.type, 'malformed');
        assert.match(x.error?.message ?? '', new RegExp(`the body is ${encoding}-encoded, which was not asked for`));
        // the dropped body's error, if unheard, comes a tick or two later
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        process.off('uncaughtException', onUncaught);
      }
      assert.deepEqual(
        uncaught.map((e) => (e as Error).message),
        [],
      );
    });
  }
});
