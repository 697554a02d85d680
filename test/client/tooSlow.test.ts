// The minimum output rate (issue 34, the trickle item): a stream of real one-character tokens,
// one a second, passes the idle timer forever and held its sample slot until totalSeconds. Both
// clients end it with too_slow one window (timeouts.slowSeconds) after its first output; a slow
// but healthy stream is not cut.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { closeStreamDispatchers, streamChat } from '../../src/client/streamChat.js';
import { startLoopback, type Loopback } from './loopback.js';

/** A stream that sends `text` as one content delta every `everyMs`, and never ends. */
function drip(text: string, everyMs: number): Promise<Loopback> {
  return startLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n');
    const t = setInterval(() => res.write(`data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}}}]}\n\n`), everyMs);
    res.on('close', () => clearInterval(t));
  });
}

// idle well above the drip, total far beyond the test's own timeout: only the rate can end these
const timeouts = { connectSeconds: 2, idleSeconds: 3, totalSeconds: 60, slowSeconds: 1.5 };

describe('the minimum output rate', { timeout: 20_000 }, () => {
  const servers: Loopback[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    await closeStreamDispatchers();
    await closeHttpDispatchers();
  });

  it('streamChat ends one character a second with too_slow one window after the first output, keeping the text', async () => {
    const s = await drip('a', 1000);
    servers.push(s);
    const started = performance.now();
    const r = await streamChat({ url: `${s.url}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts });
    const took = (performance.now() - started) / 1000;
    assert.equal(r.error?.type, 'too_slow', JSON.stringify(r.error));
    assert.match(r.error!.message, /bytes of output in 1\.5 s .*under the floor of 2 bytes\/s \(timeouts\.slowSeconds\)/);
    // first output at ~1 s, one window of 1.5 s (the timer is not exact: 1 s of room)
    assert.ok(took >= 2.3 && took < 3.6, `ended after ${took.toFixed(2)} s`);
    assert.match(r.content, /^a+$/, 'what came is kept');
  });

  it('httpExchange (the conformance client) ends the same trickle with too_slow', async () => {
    const s = await drip('a', 1000);
    servers.push(s);
    const started = performance.now();
    const x = await httpExchange(
      { method: 'POST', url: `${s.url}/v1/chat/completions`, headers: {}, body: {} },
      { timeouts, maxBytes: 1 << 20 },
    );
    const took = (performance.now() - started) / 1000;
    assert.equal(x.error?.type, 'too_slow', JSON.stringify(x.error));
    assert.ok(took >= 2.3 && took < 3.6, `ended after ${took.toFixed(2)} s`);
    assert.match(x.body, /"content":"a"/);
  });

  it('a slow but healthy stream (a 4-byte token every 0.5 s: 8 bytes/s) is not cut over several windows', async () => {
    const s = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const t = setInterval(() => {
        if (++n > 10) {
          clearInterval(t);
          res.end('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
          return;
        }
        res.write('data: {"choices":[{"index":0,"delta":{"content":"word"}}]}\n\n');
      }, 500);
      res.on('close', () => clearInterval(t));
    });
    servers.push(s);
    const r = await streamChat({ url: `${s.url}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.content, 'word'.repeat(10));
  });
});
