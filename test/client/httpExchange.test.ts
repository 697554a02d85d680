import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { startLoopback, unusedPort, type Loopback } from './loopback.js';

const T = { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 };
const KEY = 'sk-canary-key-7f3a9b2c4d5e6f70';

describe('httpExchange', { timeout: 20_000 }, () => {
  const servers: Loopback[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    await closeHttpDispatchers();
  });
  const serve = async (handler: Parameters<typeof startLoopback>[0]) => {
    const s = await startLoopback(handler);
    servers.push(s);
    return s;
  };

  it('times each read of the body, and says when the headers came', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.end('data: two\n\n'), 120);
    });
    const x = await httpExchange({ method: 'POST', url: s.url, headers: {}, body: { a: 1 } }, { timeouts: T, maxBytes: 1 << 20 });
    assert.equal(x.error, null);
    assert.equal(x.status, 200);
    assert.equal(x.contentType, 'text/event-stream');
    assert.equal(x.body, 'data: one\n\ndata: two\n\n');
    assert.equal(x.pieces.length, 2);
    assert.ok(x.pieces[1]!.atMs - x.pieces[0]!.atMs >= 100, JSON.stringify(x.pieces));
    assert.ok(x.headersAtMs !== null && x.headersAtMs <= x.pieces[0]!.atMs);
    assert.equal(s.requests[0]!.body, '{"a":1}');
    assert.equal(s.requests[0]!.headers['content-type'], 'application/json');
    assert.equal(s.requests[0]!.headers['accept-encoding'], 'identity');
  });

  it('redacts a key the server echoes, even split across two reads', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.write(`{"error":"bad key ${KEY.slice(0, 9)}`);
      setTimeout(() => res.end(`${KEY.slice(9)} (Bearer ${KEY})"}`), 50);
    });
    const x = await httpExchange(
      { method: 'GET', url: s.url, headers: { authorization: `Bearer ${KEY}` } },
      { timeouts: T, maxBytes: 1 << 20 },
    );
    assert.equal(x.status, 401);
    assert.ok(!x.body.includes(KEY.slice(0, 12)), x.body);
    assert.ok(!x.pieces.some((p) => p.text.includes(KEY.slice(4, 14))), JSON.stringify(x.pieces));
    // the scheme word is no secret: only the key goes
    assert.match(x.body, /bad key \[redacted\] \(Bearer \[redacted\]\)/);
  });

  it('redacts a prefix of the key in any case, split across reads, and in the identity headers', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json', server: `srv-${KEY.toLowerCase()}` });
      res.write(`{"error":"key ${KEY.slice(0, 5).toUpperCase()}`);
      setTimeout(() => res.end(`${KEY.slice(5, 20).toUpperCase()}… is wrong"}`), 50);
    });
    const x = await httpExchange(
      { method: 'GET', url: s.url, headers: { authorization: `Bearer ${KEY}` } },
      { timeouts: T, maxBytes: 1 << 20 },
    );
    assert.equal(x.body, '{"error":"key [redacted]… is wrong"}');
    assert.deepEqual(x.identityHeaders, { server: 'srv-[redacted]' });
  });

  it('does not follow a redirect', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    const x = await httpExchange({ method: 'GET', url: s.url, headers: {} }, { timeouts: T, maxBytes: 1024 });
    assert.equal(x.status, 302);
    assert.equal(x.error, null);
  });

  it('types what goes wrong: connect, idle, too large', async () => {
    const port = await unusedPort();
    const refused = await httpExchange({ method: 'GET', url: `http://127.0.0.1:${port}/v1`, headers: {} }, { timeouts: T, maxBytes: 1024 });
    assert.equal(refused.status, null);
    assert.equal(refused.error?.type, 'connect');
    const silent = await serve((_req, res) => {
      res.writeHead(200);
      res.write('x');
    });
    const idle = await httpExchange(
      { method: 'GET', url: silent.url, headers: {} },
      { timeouts: { ...T, idleSeconds: 0.3 }, maxBytes: 1024 },
    );
    assert.equal(idle.error?.type, 'timeout_idle');
    assert.equal(idle.body, 'x');
    const big = await serve((_req, res) => res.end('y'.repeat(5000)));
    const large = await httpExchange({ method: 'GET', url: big.url, headers: {} }, { timeouts: T, maxBytes: 1000 });
    assert.equal(large.error?.type, 'too_large');
    assert.equal(large.body.length, 1000);
  });

  // Issue 19 §5 for the conformance probe's client: before, every byte reset undici's body timer,
  // so these two held the request (and its sample slot) until totalSeconds.
  it('ends a stream that trickles one byte at a time, or sends only comments, with timeout_idle after idleSeconds', async () => {
    const timers: NodeJS.Timeout[] = [];
    const event = 'data: {"choices":[{"index":0,"delta":{"content":"hello"}}]}\n\n';
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const t = setInterval(() => (i < event.length ? res.write(event[i++]!) : res.end()), 40);
      timers.push(t);
      res.on('close', () => clearInterval(t));
    });
    const comments = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const t = setInterval(() => res.write(': ping\n\n'), 50);
      timers.push(t);
      res.on('close', () => clearInterval(t));
    });
    try {
      for (const s of [trickle, comments]) {
        const started = performance.now();
        const x = await httpExchange(
          { method: 'POST', url: s.url, headers: {}, body: {} },
          { timeouts: { connectSeconds: 2, idleSeconds: 0.5, totalSeconds: 10 }, maxBytes: 1 << 20 },
        );
        const took = performance.now() - started;
        assert.equal(x.error?.type, 'timeout_idle', JSON.stringify(x.error));
        assert.match(x.error!.message, /no output token for 0.5 s while reading the answer \(\d+ bytes came meanwhile/);
        assert.ok(took < 2500, `ended after ${Math.round(took)} ms, not at the total timeout`);
        assert.ok(x.body.length > 0, 'what came is kept');
      }
    } finally {
      for (const t of timers) clearInterval(t);
    }
  });

  it('keeps a stream whose tokens come more often than idleSeconds, whatever its comments', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const t = setInterval(() => {
        n++;
        res.write(': keep-alive\n\n');
        if (n % 3 === 0) res.write(`data: {"choices":[{"index":0,"delta":{"content":"w${n} "}}]}\n\n`);
        if (n === 15) {
          clearInterval(t);
          res.end('data: [DONE]\n\n');
        }
      }, 100);
      res.on('close', () => clearInterval(t));
    });
    const x = await httpExchange(
      { method: 'POST', url: s.url, headers: {}, body: {} },
      { timeouts: { connectSeconds: 2, idleSeconds: 0.6, totalSeconds: 10 }, maxBytes: 1 << 20 },
    );
    assert.equal(x.error, null);
    assert.match(x.body, /data: \[DONE\]/);
  });
});
