import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { streamChat } from '../../src/client/streamChat.js';
import { createTargetDispatcher } from '../../src/client/targetDispatcher.js';
import { repoPath } from '../helpers/repoRoot.js';

// A self-signed certificate for 127.0.0.1, made for these tests only.
const CERT = repoPath('test', 'fixtures', 'tls', 'cert.pem');
const KEY = repoPath('test', 'fixtures', 'tls', 'key.pem');
let server: Server;
let url: string;

before(async () => {
  server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"choices":[{"index":0,"delta":{"content":"secure hello"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}/v1/chat/completions`;
});
after(() => new Promise((r) => server.close(r)));

const timeouts = { connectSeconds: 5, idleSeconds: 5, totalSeconds: 10 };
const request = () => ({ url, headers: {}, body: { stream: true } });

test('no TLS settings: the default pool, which refuses a self-signed certificate', async () => {
  assert.equal(createTargetDispatcher({ caFile: null, insecureSkipVerify: false }, 5, readFileSync), undefined);
  const r = await streamChat(request(), { timeouts });
  assert.equal(r.error?.type, 'connect');
});

test('caFile trusts the private CA', async () => {
  const dispatcher = createTargetDispatcher({ caFile: CERT, insecureSkipVerify: false }, 5, readFileSync)!;
  const r = await streamChat(request(), { timeouts, dispatcher });
  assert.equal(r.error, null);
  assert.equal(r.content, 'secure hello');
  await dispatcher.close();
});

test('insecureSkipVerify accepts any certificate', async () => {
  const dispatcher = createTargetDispatcher({ caFile: null, insecureSkipVerify: true }, 5, readFileSync)!;
  const r = await streamChat(request(), { timeouts, dispatcher });
  assert.equal(r.content, 'secure hello');
  await dispatcher.close();
});
