// Bodies and answers a gateway may send against what the daemon asked for: a compressed
// stream (asked for identity), a redirect, a configured Accept-Encoding header.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { streamChat } from '../../src/client/streamChat.js';
import type { ChatRequest } from '../../src/client/streamTypes.js';
import { chunk, finishChunk, sseHeaders, startLoopback, usageChunk, type Loopback } from './loopback.js';

const FAST = { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 };
const BOUND = { timeout: 10_000 };
const BODY = chunk('Hello') + chunk(' world.') + finishChunk('stop') + usageChunk(3, 2) + 'data: [DONE]\n\n';

const req = (url: string, headers: Record<string, string> = {}): ChatRequest => ({
  url,
  headers: { 'content-type': 'application/json', ...headers },
  body: { model: 'm', stream: true, messages: [] },
});

async function withServer(handler: Parameters<typeof startLoopback>[0], fn: (s: Loopback) => Promise<void>): Promise<void> {
  const server = await startLoopback(handler);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

describe('encodings and redirects', () => {
  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const) {
    test(`an SSE body ${encoding}-encoded against Accept-Encoding: identity is decoded, not reported as truncated`, BOUND, async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': encoding });
          const bytes = compress(Buffer.from(BODY));
          // in pieces, as a proxy flushes them
          const cut = Math.floor(bytes.length / 2);
          res.write(bytes.subarray(0, cut));
          setTimeout(() => res.end(bytes.subarray(cut)), 20);
        },
        async (server) => {
          const result = await streamChat(req(server.url), { timeouts: FAST });
          assert.equal(result.error, null, JSON.stringify(result.error));
          assert.equal(result.content, 'Hello world.');
          assert.equal(result.finishReason, 'stop');
          assert.equal(result.outputTokens, 2);
        },
      );
    });
  }

  test('an encoding zlib does not know is a malformed error that names it', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'zstd' });
        res.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
      },
      async (server) => {
        const result = await streamChat(req(server.url), { timeouts: FAST });
        assert.equal(result.error?.type, 'malformed');
        assert.match(result.error.message, /encoded as "zstd", which was not asked for/);
      },
    );
  });

  test('a corrupt gzip body is a malformed error, and what was decoded before it is kept', BOUND, async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
        const good = gzipSync(Buffer.from(BODY));
        res.end(Buffer.concat([good.subarray(0, 10), Buffer.from('not gzip at all')]));
      },
      async (server) => {
        const result = await streamChat(req(server.url), { timeouts: FAST });
        assert.equal(result.error?.type, 'malformed');
        assert.match(result.error.message, /gzip-encoded \(not asked for\) and could not be decoded/);
      },
    );
  });

  test("the daemon's Accept-Encoding: identity is sent whatever the request's headers say", BOUND, async () => {
    await withServer(
      (_req, res) => {
        sseHeaders(res);
        res.end(BODY);
      },
      async (server) => {
        await streamChat(req(server.url, { 'accept-encoding': 'gzip, br', Accept: 'application/json' }), { timeouts: FAST });
        assert.equal(server.requests[0]?.headers['accept-encoding'], 'identity');
        assert.equal(server.requests[0]?.headers['accept'], 'text/event-stream');
      },
    );
  });

  for (const status of [301, 307, 308]) {
    test(`HTTP ${status} says it was not followed and where it pointed, without the query string`, BOUND, async () => {
      await withServer(
        (_req, res) => {
          res.writeHead(status, { location: 'https://api.example.net/v2/chat/completions?sig=secret-token' });
          res.end();
        },
        async (server) => {
          const result = await streamChat(req(server.url), { timeouts: FAST });
          assert.equal(result.error?.type, 'http_status');
          assert.match(
            result.error.message,
            new RegExp(
              `^HTTP ${status} \\(redirect not followed: update the target's baseUrl; Location: https://api\\.example\\.net/v2/chat/completions\\?…\\)`,
            ),
          );
          assert.doesNotMatch(result.error.message, /secret-token/);
          assert.equal(server.requests.length, 1, 'no second request');
        },
      );
    });
  }
});
