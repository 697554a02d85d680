import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { streamChat } from '../../src/client/streamChat.js';

// A server that echoes the Authorization header back at awkward offsets, so that a
// snippet cut for the error message would fall inside the key.
const KEY = 'sk-CANARY0123456789abcdefghijklmnopqrstuvwxyz';
let server: Server;
let base: string;

before(async () => {
  server = createServer((req, res) => {
    const auth = String(req.headers.authorization);
    const pad = (n: number) => 'x'.repeat(n);
    if (req.url?.endsWith('/status')) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(`{"error":{"message":"${pad(150)} bad key ${auth} ${pad(300)}"}}`);
    } else if (req.url?.endsWith('/garbage')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: not json ${pad(90)} ${auth} ${pad(200)}\n\n`);
    } else if (req.url?.endsWith('/html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html>${pad(180)} ${auth} ${pad(300)}</html>`);
    } else {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"error":${JSON.stringify({ detail: `${pad(100)} ${auth} ${pad(200)}` })}}\n\n`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise((r) => server.close(r)));

/** No 8-character piece of the key may survive anywhere in the message. */
function assertNoKeyPiece(message: string): void {
  for (let i = 0; i + 8 <= KEY.length; i++)
    assert.equal(message.includes(KEY.slice(i, i + 8)), false, `"${KEY.slice(i, i + 8)}" leaked in: ${message}`);
}

for (const path of ['/status', '/garbage', '/html', '/event']) {
  test(`an echoed key is redacted whole before the message is cut (${path})`, async () => {
    const r = await streamChat(
      { url: `${base}${path}`, headers: { authorization: `Bearer ${KEY}` }, body: { stream: true } },
      { timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5 } },
    );
    assert.ok(r.error, 'the request ends in an error');
    assertNoKeyPiece(r.error.message);
  });
}

test('redactBytes replaces every secret in raw bytes and keeps every other byte', async () => {
  const { redactBytes, secretsOf } = await import('../../src/client/streamChat.js');
  const raw = Buffer.concat([Buffer.from('data: {"echo":"Bearer sk-canary-1234 and sk-canary-1234"}\n\n'), Buffer.from([0xff, 0xfe])]);
  const out = redactBytes(raw, secretsOf({ authorization: 'Bearer sk-canary-1234' }));
  assert.equal(out.includes(Buffer.from('sk-canary')), false);
  assert.equal(out.toString('latin1'), 'data: {"echo":"Bearer [redacted] and [redacted]"}\n\n\xff\xfe');
});
