// Text a target returns reaches the terminal as text (issue 34, degraded items): its /version,
// error messages and the rest are shown with control characters escaped, never obeyed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from '../../src/cli.js';
import { terminalSafe } from '../../src/oneShot/terminalSafe.js';
import { ttyProgress } from '../../src/oneShot/progressView.js';
import { startSimulator } from '../../src/simulator/index.js';
import { cliIO } from '../helpers/cliIO.js';

const CLEAR = '\x1b[2J\x1b[H';
const LINK = '\x1b]8;;https://evil.example/\x07https://good.example/\x1b]8;;\x07';
const OVERPRINT = 'all good\rFAILED';
const BIDI = 'abc\u202eevil\u202c \u2066x\u2069';
const HOSTILE = `${CLEAR}${LINK} ${OVERPRINT} ${BIDI} \x9b31m \x7f \x00`;
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('writes ESC, BEL, CR, NUL, DEL, C1 and bidi controls as escapes; keeps \\n, \\t and other text', () => {
    assert.equal(terminalSafe(CLEAR), '\\x1b[2J\\x1b[H');
    assert.equal(terminalSafe(LINK), '\\x1b]8;;https://evil.example/\\x07https://good.example/\\x1b]8;;\\x07');
    assert.equal(terminalSafe(OVERPRINT), 'all good\\rFAILED');
    assert.equal(terminalSafe(BIDI), 'abc\\u202eevil\\u202c \\u2066x\\u2069');
    assert.equal(terminalSafe('\x9b31m\x7f\x00\x85'), '\\u009b31m\\u007f\\x00\\u0085');
    assert.equal(terminalSafe('line 1\n\tline 2 — ünïcode 日本 🙂 \\x1b'), 'line 1\n\tline 2 — ünïcode 日本 🙂 \\x1b');
    assert.doesNotMatch(terminalSafe(HOSTILE), RAW);
  });

  it('leaves JSON the same JSON', () => {
    const value = { version: HOSTILE, list: [BIDI, '\u0085'] };
    const text = terminalSafe(JSON.stringify(value));
    assert.doesNotMatch(text, RAW);
    assert.deepEqual(JSON.parse(text), value);
  });

  it('the TTY progress view keeps its own cursor movements and escapes what a target wrote', () => {
    let out = '';
    const view = ttyProgress((s) => {
      out += s;
    }, 200);
    view.started('k', 't', 'p', 0, 100);
    view.finished('k', 't', 'p', {
      index: 0,
      verdict: 'fail',
      outputTokens: 5,
      tokensPerSecond: null,
      durationSeconds: 1,
      finishReason: HOSTILE,
      aborted: false,
    } as never);
    view.close();
    assert.match(out, /\x1b\[2K/, 'its own erase-line sequences reach the terminal');
    assert.ok(out.includes('\\x1b[2J'), out);
    assert.doesNotMatch(out.replace(/\r\x1b\[2K|\x1b\[\d+A/g, ''), RAW);
  });
});

/** The simulator behind a proxy whose /version says `version`, and whose chat answers fail with `failure` when set. */
async function hostileTarget(sim: { url: string }, state: { version: string; failure: string | null }): Promise<Server> {
  const origin = new URL(sim.url).origin;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.url?.endsWith('/version')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: state.version }));
      return;
    }
    if (state.failure !== null && req.url?.includes('/chat/completions')) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(state.failure);
      return;
    }
    const r = await fetch(`${origin}${req.url}`, {
      method: req.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
    if (r.body) for await (const c of r.body) res.write(c);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('what the CLI prints of a target', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-terminal-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('probe --baseline shows a hostile /version escaped; probe shows a hostile error message escaped', async () => {
    const sim = await startSimulator({ port: 0 });
    const state: { version: string; failure: string | null } = { version: '1.0.0', failure: null };
    const proxy = await hostileTarget(sim, state);
    try {
      const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/v1`;
      const flags = ['probe', '--base-url', url, '--model', 'healthy', '--max-tokens', '300', '--temperature', '0', '--seed', '7'];
      const file = join(dir, 'b.json');
      const run = async (more: string[]) => {
        const x = cliIO('', {});
        const code = await main([...flags, ...more], x.io);
        return { code, out: x.out(), err: x.err() };
      };
      const saved = await run(['--save-baseline', file]);
      assert.equal(saved.code, 0, saved.err);

      state.version = HOSTILE;
      const compared = await run(['--baseline', file]);
      assert.match(compared.out, /what the targets say of themselves, changed/, compared.out);
      assert.ok(compared.out.includes('version 1.0.0 → \\x1b[2J\\x1b[H\\x1b]8;;https://evil.example/'), compared.out);
      assert.ok(compared.out.includes('all good\\rFAILED'), compared.out);
      assert.ok(compared.out.includes('\\u202e'), compared.out);
      assert.doesNotMatch(compared.out + compared.err, RAW);
      const json = await run(['--baseline', file, '--json']);
      assert.doesNotMatch(json.out, RAW);
      assert.ok(JSON.stringify(JSON.parse(json.out)).includes(JSON.stringify(HOSTILE).slice(1, -1)), 'the JSON holds the text as sent');

      state.failure = `overloaded ${HOSTILE}`;
      const failed = await run([]);
      assert.equal(failed.code, 3, failed.out + failed.err);
      assert.ok((failed.out + failed.err).includes('\\x1b[2J'), failed.out + failed.err);
      assert.doesNotMatch(failed.out + failed.err, RAW);
    } finally {
      proxy.close();
      await sim.close();
    }
  });
});
