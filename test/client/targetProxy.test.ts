import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpExchange } from '../../src/client/httpExchange.js';
import { streamChat } from '../../src/client/streamChat.js';
import { createTargetDispatcher } from '../../src/client/targetDispatcher.js';
import { startCountingProxy, type CountingProxy } from '../helpers/countingProxy.js';
import { repoPath } from '../helpers/repoRoot.js';
import { startLoopback, type Loopback } from './loopback.js';

// Target requests through HTTP_PROXY / HTTPS_PROXY: an http target as absolute-URI requests, an
// https one through a CONNECT tunnel with the target's own TLS settings; NO_PROXY reaches it directly.
const CERT = repoPath('test', 'fixtures', 'tls', 'cert.pem');
const KEY = repoPath('test', 'fixtures', 'tls', 'key.pem');
const SSE = 'data: {"choices":[{"index":0,"delta":{"content":"via proxy"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
const timeouts = { connectSeconds: 5, idleSeconds: 5, totalSeconds: 10 };
const noTls = { caFile: null, insecureSkipVerify: false };

let proxy: CountingProxy;
let plain: Loopback;
/** The plain target's origin (the loopback's url is its chat path). */
let origin: string;
let secure: HttpsServer;
let secureUrl: string;

before(async () => {
  proxy = await startCountingProxy();
  plain = await startLoopback((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"m"}]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(SSE);
  });
  origin = new URL(plain.url).origin;
  secure = createHttpsServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(SSE);
  });
  await new Promise<void>((r) => secure.listen(0, '127.0.0.1', r));
  secureUrl = `https://127.0.0.1:${(secure.address() as { port: number }).port}/v1`;
});
after(async () => {
  await proxy.close();
  await plain.close();
  await new Promise((r) => secure.close(r));
});

describe('createTargetDispatcher with a proxy', () => {
  it("sends an http target's chat request and plain reads to HTTP_PROXY as absolute-URI requests", async () => {
    const before = proxy.requests.length;
    const dispatcher = createTargetDispatcher(noTls, 5, readFileSync, { httpProxy: proxy.url, httpsProxy: null, noProxy: '' })!;
    assert.ok(dispatcher);
    const chat = await streamChat({ url: `${origin}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts, dispatcher });
    assert.equal(chat.error, null);
    assert.equal(chat.content, 'via proxy');
    const read = await httpExchange({ method: 'GET', url: `${origin}/v1/models`, headers: {} }, { timeouts, maxBytes: 4096, dispatcher });
    assert.equal(read.status, 200);
    assert.deepEqual(
      proxy.requests.slice(before).map((r) => `${r.method} ${r.target}`),
      [`POST ${origin}/v1/chat/completions`, `GET ${origin}/v1/models`],
    );
    await dispatcher.close();
  });

  it("tunnels an https target through HTTPS_PROXY, its caFile trusting the target, with the proxy's credentials", async () => {
    const before = proxy.requests.length;
    const withAuth = proxy.url.replace('http://', 'http://alice:pw%40x@');
    const dispatcher = createTargetDispatcher({ caFile: CERT, insecureSkipVerify: false }, 5, readFileSync, {
      httpProxy: null,
      httpsProxy: withAuth,
      noProxy: 'example.com',
    })!;
    const chat = await streamChat({ url: `${secureUrl}/chat/completions`, headers: {}, body: { stream: true } }, { timeouts, dispatcher });
    assert.equal(chat.error, null);
    assert.equal(chat.content, 'via proxy');
    const seen = proxy.requests.slice(before);
    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.target}`),
      [`CONNECT ${new URL(secureUrl).host}`],
    );
    assert.equal(seen[0]?.auth, `Basic ${Buffer.from('alice:pw@x').toString('base64')}`);
    await dispatcher.close();
  });

  it("an https target goes through HTTP_PROXY when HTTPS_PROXY is not set (undici's rule)", async () => {
    const before = proxy.requests.length;
    const dispatcher = createTargetDispatcher({ caFile: null, insecureSkipVerify: true }, 5, readFileSync, {
      httpProxy: proxy.url,
      httpsProxy: null,
      noProxy: '',
    })!;
    const chat = await streamChat({ url: `${secureUrl}/chat/completions`, headers: {}, body: { stream: true } }, { timeouts, dispatcher });
    assert.equal(chat.content, 'via proxy');
    assert.deepEqual(
      proxy.requests.slice(before).map((r) => r.method),
      ['CONNECT'],
    );
    await dispatcher.close();
  });

  it("NO_PROXY naming the target's host (or host:port) reaches it directly", async () => {
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${new URL(origin).port}`, 'localhost, 127.0.0.1']) {
      const before = proxy.requests.length;
      const dispatcher = createTargetDispatcher(noTls, 5, readFileSync, { httpProxy: proxy.url, httpsProxy: proxy.url, noProxy })!;
      const chat = await streamChat(
        { url: `${origin}/v1/chat/completions`, headers: {}, body: { stream: true } },
        { timeouts, dispatcher },
      );
      assert.equal(chat.content, 'via proxy', noProxy);
      assert.equal(proxy.requests.length, before, noProxy);
      await dispatcher.close();
    }
  });

  it('a proxy that does not answer is a connect error of the sample, within the connect timeout', async () => {
    const dispatcher = createTargetDispatcher(noTls, 1, readFileSync, { httpProxy: 'http://127.0.0.1:1', httpsProxy: null, noProxy: '' })!;
    const chat = await streamChat({ url: `${origin}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts, dispatcher });
    assert.equal(chat.error?.type, 'connect');
    await dispatcher.close();
  });

  it('a proxy that refuses (407, or no tunnel) is a connect error that says so; the target is never reached', async () => {
    const refusing = createServer((req, res) => {
      req.resume();
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
    });
    refusing.on('connect', (_req, socket: Socket) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
    await new Promise<void>((r) => refusing.listen(0, '127.0.0.1', r));
    const at = `http://127.0.0.1:${(refusing.address() as { port: number }).port}`;
    const served = plain.requests.length;
    try {
      const dispatcher = createTargetDispatcher({ caFile: null, insecureSkipVerify: true }, 5, readFileSync, {
        httpProxy: at,
        httpsProxy: null,
        noProxy: '',
      })!;
      const http = await streamChat(
        { url: `${origin}/v1/chat/completions`, headers: {}, body: { stream: true } },
        { timeouts, dispatcher },
      );
      assert.equal(http.error?.type, 'connect');
      assert.match(http.error?.message ?? '', /^the proxy refused the request: .*Proxy Authentication Required \(407\)/);
      const tunnel = await streamChat(
        { url: `${secureUrl}/chat/completions`, headers: {}, body: { stream: true } },
        { timeouts, dispatcher },
      );
      assert.equal(tunnel.error?.type, 'connect');
      assert.match(tunnel.error?.message ?? '', /the proxy refused the request: .*Proxy response \(403\)/);
      const read = await httpExchange({ method: 'GET', url: `${origin}/v1/models`, headers: {} }, { timeouts, maxBytes: 4096, dispatcher });
      assert.equal(read.error?.type, 'connect');
      assert.equal(plain.requests.length, served);
      await dispatcher.close();
    } finally {
      refusing.closeAllConnections();
      await new Promise((r) => refusing.close(r));
    }
  });
});
