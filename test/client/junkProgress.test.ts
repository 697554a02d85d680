// Issue 34: only a delta that carries output is progress, in both clients. A server sending
// `data: x`, usage-only events, empty and role-only deltas every 0.3 s ends at idleSeconds, not at
// totalSeconds (before, these reset the conformance client's idle timer).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { closeStreamDispatchers, streamChat } from '../../src/client/streamChat.js';
import { startLoopback, type Loopback } from './loopback.js';

const USAGE = 'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}\n\n';
const EMPTY = 'data: {"choices":[{"index":0,"delta":{"content":""}}]}\n\n';
const ROLE = 'data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n';
const TOOL_INDEX = 'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}\n\n';

function junk(events: string[]): Promise<Loopback> {
  return startLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n');
    let i = 0;
    const t = setInterval(() => res.write(events[i++ % events.length]!), 300);
    res.on('close', () => clearInterval(t));
  });
}

const timeouts = { connectSeconds: 2, idleSeconds: 1, totalSeconds: 30 };

describe('junk events are no progress', { timeout: 20_000 }, () => {
  const servers: Loopback[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    await closeStreamDispatchers();
    await closeHttpDispatchers();
  });

  it('httpExchange: data: x, usage-only, empty, role-only and index-only tool deltas end at idleSeconds', async () => {
    const s = await junk(['data: x\n\n', USAGE, EMPTY, ROLE, TOOL_INDEX, 'data: 42\n\n']);
    servers.push(s);
    const started = performance.now();
    const x = await httpExchange(
      { method: 'POST', url: `${s.url}/v1/chat/completions`, headers: {}, body: {} },
      { timeouts, maxBytes: 1 << 20 },
    );
    const took = (performance.now() - started) / 1000;
    assert.equal(x.error?.type, 'timeout_idle', JSON.stringify(x.error));
    assert.ok(took < 2.5, `ended after ${took.toFixed(2)} s, not at totalSeconds`);
  });

  it('streamChat: usage-only, empty, role-only deltas end at idleSeconds (timeout_idle), keeping the text', async () => {
    const s = await junk([USAGE, EMPTY, ROLE]);
    servers.push(s);
    const started = performance.now();
    const r = await streamChat({ url: `${s.url}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts });
    const took = (performance.now() - started) / 1000;
    assert.equal(r.error?.type, 'timeout_idle', JSON.stringify(r.error));
    assert.ok(took < 2.5, `ended after ${took.toFixed(2)} s`);
    assert.equal(r.content, 'Hello');
  });

  it('streamChat: data: x lines end at idleSeconds too, the first bad event named as the cause', async () => {
    const s = await junk(['data: x\n\n', USAGE]);
    servers.push(s);
    const started = performance.now();
    const r = await streamChat({ url: `${s.url}/v1/chat/completions`, headers: {}, body: { stream: true } }, { timeouts });
    const took = (performance.now() - started) / 1000;
    assert.equal(r.error?.type, 'malformed', JSON.stringify(r.error));
    assert.ok(took < 2.5, `ended after ${took.toFixed(2)} s`);
  });
});
