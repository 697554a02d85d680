import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/loadConfig.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { startCountingProxy, type CountingProxy } from '../helpers/countingProxy.js';

// Issue 39, "Done when": with a proxy set, every target request goes through it (the chat
// requests and the fingerprint reads of /models and the info endpoints), and NO_PROXY is
// honoured. The daemon reads the proxy variables from the env it is given, once, at start-up.
const SSE = 'data: {"choices":[{"index":0,"delta":{"content":"hello there"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

let proxy: CountingProxy;
let target: Server;
let origin: string;
/** Every request the target received: `METHOD /path`. */
const received: string[] = [];

before(async () => {
  proxy = await startCountingProxy();
  target = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(SSE);
    } else if (req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[{"id":"m","owned_by":"t"}]}');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(target.address() as { port: number }).port}`;
});
after(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
});

function configOf(): ReturnType<typeof parseConfig> {
  return parseConfig(
    `
server: { host: 127.0.0.1, port: 0 }
targets:
  - { name: behind, baseUrl: "${origin}/v1", model: m }
probes:
  - { name: p, prompt: "Write about storage engines.", maxTokens: 200, minTokens: 0 }
`,
    { env: {} },
  );
}

/** Runs the probe once through the daemon's /probe and returns the requests the target received meanwhile. */
async function runOnce(env: Record<string, string>): Promise<{ received: string[]; proxied: string[]; log: string }> {
  const config = configOf();
  assert.ok(config.ok, config.ok ? '' : config.errors.join('\n'));
  const { logger, text } = captureLogger();
  const daemon: Daemon = await startDaemon({ config: config.config, configPath: null, logger, env });
  const from = { received: received.length, proxied: proxy.requests.length };
  try {
    const res = await fetch(`${daemon.url}/probe?target=behind&probe=p`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { samples: { error?: { type: string } | null }[] };
    assert.equal(body.samples[0]?.error ?? null, null);
  } finally {
    await daemon.close();
  }
  return {
    received: received.slice(from.received),
    proxied: proxy.requests.slice(from.proxied).map((r) => `${r.method} ${r.target.replace(origin, '')}`),
    log: text(),
  };
}

describe('a daemon given HTTP_PROXY', { timeout: 30_000 }, () => {
  it('sends every target request through the proxy: the chat request and the fingerprint reads', async () => {
    const run = await runOnce({ HTTP_PROXY: proxy.url.replace('http://', 'http://ops:proxy-pw-canary@') });
    assert.ok(run.received.includes('POST /v1/chat/completions'), run.received.join(', '));
    assert.ok(run.received.includes('GET /v1/models'), run.received.join(', '));
    assert.ok(run.received.length >= 3, `the info endpoints are read too: ${run.received.join(', ')}`);
    assert.deepEqual([...run.proxied].sort(), [...run.received].sort());
    assert.match(run.log, /requests to targets go through a proxy/);
    assert.match(run.log, /http:\/\/\[redacted\]@127\.0\.0\.1/);
    assert.doesNotMatch(run.log, /proxy-pw-canary/);
  });

  it("the lowercase variable as curl reads it, and NO_PROXY naming the target's host: none go through it", async () => {
    const run = await runOnce({ http_proxy: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    assert.ok(run.received.includes('POST /v1/chat/completions'));
    assert.deepEqual(run.proxied, []);
  });

  it('a target a reload adds goes through the proxy read at start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coherency-proxy-'));
    const path = join(dir, 'config.yaml');
    const yaml = (targets: string) =>
      `server: { host: 127.0.0.1, port: 0 }\ntargets:\n${targets}probes:\n  - { name: p, prompt: "Write about storage engines.", maxTokens: 200, minTokens: 0 }\n`;
    await writeFile(path, yaml(`  - { name: behind, baseUrl: "${origin}/v1", model: m }\n`));
    const loaded = await loadConfig(path, {});
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
    const daemon = await startDaemon({
      config: loaded.config,
      configPath: path,
      logger: captureLogger().logger,
      env: { HTTP_PROXY: proxy.url },
    });
    try {
      await writeFile(
        path,
        yaml(`  - { name: behind, baseUrl: "${origin}/v1", model: m }\n  - { name: added, baseUrl: "${origin}/v2", model: m }\n`),
      );
      assert.deepEqual(await daemon.reload(), { ok: true });
      const from = proxy.requests.length;
      const res = await fetch(`${daemon.url}/probe?target=added&probe=p`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(res.status, 200);
      assert.ok(
        proxy.requests.slice(from).some((r) => r.method === 'POST' && r.target === `${origin}/v2/chat/completions`),
        proxy.requests
          .slice(from)
          .map((r) => r.target)
          .join(', '),
      );
    } finally {
      await daemon.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an invalid proxy variable stops start-up with a message that names it', async () => {
    const config = configOf();
    assert.ok(config.ok);
    const started = startDaemon({
      config: config.config,
      configPath: null,
      logger: captureLogger().logger,
      env: { HTTPS_PROXY: 'ftp://p:21' },
    });
    // a daemon that started anyway is closed, so that the failure does not hold the test open
    await assert.rejects(
      started.then(async (d) => {
        await d.close();
        return d;
      }),
      /HTTPS_PROXY: ftp proxies are not supported/,
    );
  });
});
