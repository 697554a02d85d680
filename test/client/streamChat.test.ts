import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { streamChat, DEFAULT_TIMEOUTS, type StreamChatOptions } from '../../src/client/streamChat.js';
import type { ChatRequest, StreamProgress, StreamResult } from '../../src/client/streamTypes.js';
import { startLoopback, unusedPort, sseHeaders, chunk, finishChunk, usageChunk, type Loopback } from './loopback.js';

const FAST = { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 };
const KEY = 'sk-test-0123456789abcdef';
/** Every test must finish well inside this; a hang is a failure, not a stuck run. */
const BOUND = { timeout: 10_000 };

function req(url: string, body: Record<string, unknown> = {}): ChatRequest {
  return {
    url,
    // as the probe runner sends them: non-secret headers must stay readable in messages
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${KEY}` },
    body: { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [], ...body },
  };
}

async function withServer(handler: Parameters<typeof startLoopback>[0], fn: (server: Loopback) => Promise<void>): Promise<void> {
  const server = await startLoopback(handler);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

function run(url: string, options: Partial<StreamChatOptions> = {}): Promise<StreamResult> {
  return streamChat(req(url), { timeouts: FAST, ...options });
}

function assertNoSecret(result: StreamResult): void {
  assert.ok(!JSON.stringify(result).includes(KEY), 'the API key must not appear in the result');
}

const WORDS = ['Hello', ' wörld', ' — ', '日本語', ' 🙂', ' end.'];

function healthyBody(): string {
  let out = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`;
  for (const w of WORDS) out += chunk(w);
  out += finishChunk('stop') + usageChunk(12, WORDS.length) + 'data: [DONE]\n\n';
  return out;
}

describe('streamChat against a loopback server', () => {
  test('DEFAULT_TIMEOUTS suit long generations', () => {
    assert.ok(DEFAULT_TIMEOUTS.idleSeconds >= 30);
    assert.ok(DEFAULT_TIMEOUTS.totalSeconds >= 1000);
    assert.ok(DEFAULT_TIMEOUTS.connectSeconds > 0);
  });

  test('healthy stream: content, usage, timings, progress, request as sent', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        // one byte at a time, so multi-byte characters are split across reads
        const bytes = Buffer.from(healthyBody(), 'utf8');
        let i = 0;
        const tick = (): void => {
          if (i >= bytes.length) {
            res.end();
            return;
          }
          res.write(bytes.subarray(i, i + 7));
          i += 7;
          setImmediate(tick);
        };
        tick();
      },
      async (server) => {
        const progress: StreamProgress[] = [];
        const result = await run(server.url, { onProgress: (p) => progress.push(p) });
        assert.equal(result.error, null);
        assert.equal(result.content, WORDS.join(''));
        assert.equal(result.reasoning, '');
        assert.equal(result.finishReason, 'stop');
        assert.equal(result.outputTokens, WORDS.length);
        assert.equal(result.outputTokensSource, 'usage');
        assert.equal(result.promptTokens, 12);
        assert.equal(result.httpStatus, 200);
        assert.equal(result.endedCleanly, true);
        assert.ok(result.ttftSeconds !== null && result.ttftSeconds >= 0);
        assert.ok(result.ttfcSeconds !== null && result.ttfcSeconds >= result.ttftSeconds);
        assert.ok(result.durationSeconds >= result.ttftSeconds);
        assert.equal(result.chunks, WORDS.length + 3);
        assert.equal(result.gapsSeconds?.length, WORDS.length - 1);
        assert.ok(result.maxGapSeconds >= 0);
        assert.equal(progress.map((p) => p.contentDelta).join(''), WORDS.join(''));
        assert.ok(progress.length > 0 && progress.every((p) => p.tokens > 0));
        const sent = server.requests[0];
        assert.ok(sent);
        assert.equal(sent.headers.authorization, `Bearer ${KEY}`);
        assert.equal(sent.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(sent.body).stream_options, { include_usage: true });
      },
    );
  });

  test('connect: refused port', BOUND, async () => {
    const port = await unusedPort();
    const result = await run(`http://127.0.0.1:${port}/v1/chat/completions`);
    assert.equal(result.error?.type, 'connect');
    assert.match(result.error.message, /ECONNREFUSED/);
    assert.equal(result.httpStatus, null);
    assertNoSecret(result);
  });

  test('connect: TLS to a plain HTTP server', BOUND, async () => {
    await withServer(
      (_req, res) => res.end('x'),
      async (server) => {
        const result = await run(server.url.replace('http:', 'https:'));
        assert.equal(result.error?.type, 'connect');
      },
    );
  });

  test('connect: a name that does not resolve', BOUND, async () => {
    // .invalid never resolves (RFC 6761); without DNS at all the lookup may hang instead.
    const result = await run('http://no-such-host.invalid/v1/chat/completions', {
      timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 },
    });
    assert.ok(result.error?.type === 'connect' || result.error?.type === 'timeout_connect', JSON.stringify(result.error));
  });

  test('timeouts of 0 or Infinity are "no limit", not "fire at once"', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        setTimeout(() => res.end(healthyBody()), 30);
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 0, idleSeconds: Infinity, totalSeconds: 1e12 } });
        assert.equal(result.error, null);
        assert.equal(result.content, WORDS.join(''));
      },
    );
  });

  test('connect: invalid URL never throws', BOUND, async () => {
    const result = await run('not a url');
    assert.equal(result.error?.type, 'connect');
  });

  test('timeout_connect: a connection that never completes', BOUND, async () => {
    // A connector that never calls back stands in for a black-holed address.
    const dispatcher = new Agent({ connect: () => undefined });
    try {
      const result = await run('http://127.0.0.1:9/v1/chat/completions', {
        dispatcher,
        timeouts: { connectSeconds: 0.2, idleSeconds: 5, totalSeconds: 5 },
      });
      assert.equal(result.error?.type, 'timeout_connect');
    } finally {
      await dispatcher.destroy();
    }
  });

  test('timeout_idle: stall mid-stream keeps what came', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.write(chunk('partial'));
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 0.3, totalSeconds: 5 } });
        assert.equal(result.error?.type, 'timeout_idle');
        assert.equal(result.content, 'partial');
        assert.equal(result.endedCleanly, false);
        await server.socketClosed();
      },
    );
  });

  test('timeout_idle: no response headers at all', BOUND, async () => {
    await withServer(
      () => undefined,
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 0.3, totalSeconds: 5 } });
        assert.equal(result.error?.type, 'timeout_idle');
        assert.equal(result.httpStatus, null);
        await server.socketClosed();
      },
    );
  });

  test('a token after keep-alive comments, within idleSeconds of the headers, is read', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.write(': keep-alive\n\n');
        const timer = setTimeout(() => res.end(chunk('late') + finishChunk() + 'data: [DONE]\n\n'), 150);
        res.on('close', () => clearTimeout(timer));
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 0.6, totalSeconds: 5 } });
        assert.equal(result.error, null);
        assert.equal(result.content, 'late');
      },
    );
  });

  // Issue 19: a trickle held a sample slot until the total timeout, since every byte reset the idle timer.
  const TRICKLE = { connectSeconds: 2, idleSeconds: 0.5, totalSeconds: 6 };

  test('timeout_idle: a stream of SSE comments only, however frequent, is no progress', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.write(chunk('first'));
        const timer = setInterval(() => res.write(': OPENROUTER PROCESSING\n\n'), 50);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const t0 = performance.now();
        const result = await run(server.url, { timeouts: TRICKLE });
        assert.equal(result.error?.type, 'timeout_idle', result.error?.message);
        assert.match(result.error!.message, /^no output token for 0\.5 s \(\d+ bytes came meanwhile/);
        assert.equal(result.content, 'first');
        assert.ok(performance.now() - t0 < 3000, 'ended by the idle timeout, not the total one');
        await server.socketClosed();
      },
    );
  });

  test('timeout_idle: an event stream sent one byte at a time', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        const body = Buffer.from(Array.from({ length: 50 }, (_, i) => chunk(`w${i} `)).join(''));
        let at = 0;
        const timer = setInterval(() => {
          if (at < body.length) res.write(body.subarray(at, ++at));
        }, 10);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const t0 = performance.now();
        const result = await run(server.url, { timeouts: TRICKLE });
        assert.equal(result.error?.type, 'timeout_idle', result.error?.message);
        assert.ok(performance.now() - t0 < 3000, 'ended by the idle timeout, not the total one');
        await server.socketClosed();
      },
    );
  });

  test('timeout_idle: a body that is not an event stream, sent one byte at a time', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write('x'), 10);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const result = await run(server.url, { timeouts: TRICKLE });
        assert.equal(result.error?.type, 'timeout_idle', result.error?.message);
        assert.match(result.error!.message, /fewer than 1024 bytes of body for 0\.5 s/);
        await server.socketClosed();
      },
    );
  });

  test('timeout_total: endless stream', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        const timer = setInterval(() => res.write(chunk('again ')), 5);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 0.4 } });
        assert.equal(result.error?.type, 'timeout_total');
        assert.ok(result.content.startsWith('again again'));
        assert.ok(result.outputTokens > 2);
        await server.socketClosed();
      },
    );
  });

  test('truncated: connection cut mid-stream', BOUND, async () => {
    await withServer(
      (req, res) => {
        sseHeaders(res);
        res.write(chunk('one ') + chunk('two '));
        setTimeout(() => req.socket.destroy(), 50);
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'truncated');
        assert.equal(result.content, 'one two ');
        assert.equal(result.outputTokens, 2);
        assert.equal(result.outputTokensSource, 'deltas');
      },
    );
  });

  test('truncated: clean EOF without finish_reason or [DONE]', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(chunk('one ') + chunk('tw'));
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'truncated');
        assert.equal(result.content, 'one tw');
      },
    );
  });

  test('truncated: connection closed before response headers', BOUND, async () => {
    await withServer(
      (req) => req.socket.destroy(),
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'truncated');
        assert.equal(result.httpStatus, null);
      },
    );
  });

  test('[DONE] on a response the server never ends is clean and closes the socket', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.write(healthyBody());
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 30, totalSeconds: 60 } });
        assert.equal(result.error, null);
        assert.equal(result.endedCleanly, true);
        assert.equal(result.content, WORDS.join(''));
        await server.socketClosed();
      },
    );
  });

  test('finish_reason then EOF without [DONE] is clean', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(chunk('done') + finishChunk('length'));
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error, null);
        assert.equal(result.finishReason, 'length');
        assert.equal(result.endedCleanly, true);
      },
    );
  });

  for (const [status, pattern] of [
    [500, /HTTP 500: .*engine died/],
    [401, /HTTP 401 \(auth\)/],
    [403, /HTTP 403 \(auth\)/],
    [429, /HTTP 429 \(rate limited\)/],
  ] as const) {
    test(`http_status ${status}`, BOUND, async () => {
      await withServer(
        (req, res) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          // A server that echoes the key back must not leak it into our result.
          res.end(
            JSON.stringify({
              error: { message: `engine died for ${req.headers.authorization} (key ${KEY}) sent as application/json`, code: status },
            }),
          );
        },
        async (server) => {
          const result = await run(server.url);
          assert.equal(result.error?.type, 'http_status');
          assert.match(result.error.message, pattern);
          assert.equal(result.httpStatus, status);
          assert.match(result.error.message, /\[redacted\].*sent as application\/json/);
          assertNoSecret(result);
        },
      );
    });
  }

  test('http_status: a huge error body is cut short', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end(`<html>${'bad gateway '.repeat(100_000)}</html>`);
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'http_status');
        assert.ok(result.error.message.length < 400);
      },
    );
  });

  test('malformed: a garbage data line, the rest is kept', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(chunk('a') + 'data: {not json at all\n\n' + chunk('b') + finishChunk() + 'data: [DONE]\n\n');
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'malformed');
        assert.equal(result.content, 'ab');
        assert.equal(result.endedCleanly, false);
      },
    );
  });

  test('server_error_event in a 200 ends the call without waiting for the server', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.write(chunk('so far'));
        res.write(
          `data: ${JSON.stringify({ error: { object: 'error', message: 'CUDA out of memory', type: 'InternalServerError', code: 500 } })}\n\n`,
        );
        // and keeps the connection open
      },
      async (server) => {
        const result = await run(server.url, { timeouts: { connectSeconds: 2, idleSeconds: 4, totalSeconds: 8 } });
        assert.equal(result.error?.type, 'server_error_event');
        assert.match(result.error.message, /CUDA out of memory/);
        assert.equal(result.content, 'so far');
        assert.ok(result.durationSeconds < 2);
        await server.socketClosed();
      },
    );
  });

  test('not_streaming: a chat completion JSON body is still accumulated', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            model: 'm',
            choices: [
              { index: 0, message: { role: 'assistant', content: 'whole answer', reasoning_content: 'thought' }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
          }),
        );
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'not_streaming');
        assert.match(result.error.message, /application\/json/);
        assert.equal(result.content, 'whole answer');
        assert.equal(result.reasoning, 'thought');
        assert.equal(result.finishReason, 'stop');
        assert.equal(result.outputTokens, 3);
        assert.equal(result.outputTokensSource, 'usage');
        assert.equal(result.endedCleanly, false);
      },
    );
  });

  test('not_streaming: an HTML body', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><body>Please log in</body></html>');
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error?.type, 'not_streaming');
        assert.match(result.error.message, /text\/html.*Please log in/);
        assert.equal(result.content, '');
      },
    );
  });

  test('SSE with a wrong content-type is still read as SSE', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('\n');
        setTimeout(() => res.end(chunk('fine') + finishChunk() + 'data: [DONE]\n\n'), 20);
      },
      async (server) => {
        const result = await run(server.url);
        assert.equal(result.error, null);
        assert.equal(result.content, 'fine');
      },
    );
  });

  test('too_large: over maxBytes aborts and keeps what came', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        const timer = setInterval(() => res.write(chunk('x'.repeat(100))), 1);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const result = await run(server.url, { maxBytes: 20_000 });
        assert.equal(result.error?.type, 'too_large');
        assert.ok(result.content.length > 1000);
        assert.ok(result.content.length <= 20_000);
        await server.socketClosed();
      },
    );
  });

  test('onRaw: hands over the body as received, byte for byte', BOUND, async () => {
    const body = healthyBody();
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(body);
      },
      async (server) => {
        const parts: Buffer[] = [];
        const result = await run(server.url, { onRaw: (b) => parts.push(Buffer.from(b)) });
        assert.equal(result.error, null);
        assert.equal(Buffer.concat(parts).toString('utf8'), body);
      },
    );
  });

  test('onRaw: the capture is bounded by maxBytes', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        const timer = setInterval(() => res.write(chunk('x'.repeat(100))), 1);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        let captured = 0;
        const result = await run(server.url, {
          maxBytes: 20_000,
          onRaw: (b) => {
            captured += b.byteLength;
          },
        });
        assert.equal(result.error?.type, 'too_large');
        assert.equal(captured, 20_000);
        await server.socketClosed();
      },
    );
  });

  test('too_large: an oversize JSON body', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { content: 'y'.repeat(50_000) } }] }));
      },
      async (server) => {
        const result = await run(server.url, { maxBytes: 10_000 });
        assert.equal(result.error?.type, 'too_large');
      },
    );
  });

  test('aborted: caller signal mid-stream keeps everything and closes the socket', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        let n = 0;
        const timer = setInterval(() => res.write(chunk(`t${n++} `)), 5);
        res.on('close', () => clearInterval(timer));
      },
      async (server) => {
        const ac = new AbortController();
        let seen = '';
        const result = await run(server.url, {
          signal: ac.signal,
          timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 8 },
          onProgress: (p) => {
            seen += p.contentDelta;
            if (p.tokens >= 10) ac.abort();
          },
        });
        assert.equal(result.error?.type, 'aborted');
        assert.equal(result.content, seen);
        assert.ok(result.outputTokens >= 10);
        await server.socketClosed();
      },
    );
  });

  test('aborted: a signal aborted before the call never connects', BOUND, async () => {
    await withServer(
      (_req, res) => res.end(),
      async (server) => {
        const ac = new AbortController();
        ac.abort();
        const result = await run(server.url, { signal: ac.signal });
        assert.equal(result.error?.type, 'aborted');
        assert.equal(server.requests.length, 0);
      },
    );
  });

  test('aborted: while the connection is still being made', BOUND, async () => {
    const dispatcher = new Agent({ connect: () => undefined });
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('probe cancelled')), 50);
      const result = await run('http://127.0.0.1:9/v1/chat/completions', {
        dispatcher,
        signal: ac.signal,
        timeouts: { connectSeconds: 5, idleSeconds: 5, totalSeconds: 5 },
      });
      assert.equal(result.error?.type, 'aborted');
      assert.match(result.error.message, /probe cancelled/);
    } finally {
      await dispatcher.destroy();
    }
  });

  test('an onProgress that throws ends the call instead of escaping', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(healthyBody());
      },
      async (server) => {
        const result = await run(server.url, {
          onProgress: () => {
            throw new Error('analyzer bug');
          },
        });
        assert.equal(result.error?.type, 'aborted');
        assert.match(result.error.message, /analyzer bug/);
      },
    );
  });

  test('no timer is left behind, whichever way a call ends', BOUND, async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await withServer(
      (req, res) => {
        if (req.url?.endsWith('/stall')) {
          sseHeaders(res);
          res.write(chunk('x'));
          return;
        }
        sseHeaders(res);
        res.end(healthyBody());
      },
      async (server) => {
        const before = timers();
        await run(server.url);
        await run(`${server.url}/stall`, { timeouts: { connectSeconds: 1, idleSeconds: 0.1, totalSeconds: 5 } });
        await run(server.url, { maxBytes: 50 });
        assert.equal(timers(), before);
      },
    );
  });

  test('a healthy call after each fault still works', BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(healthyBody());
      },
      async (server) => {
        for (let i = 0; i < 3; i++) {
          const result = await run(server.url);
          assert.equal(result.error, null);
          assert.equal(result.content, WORDS.join(''));
        }
      },
    );
  });
});
