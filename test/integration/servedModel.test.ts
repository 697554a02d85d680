// Issue 39, item 8: `serve` with OPENAI_BASE_URL and no model reads the endpoint's /models once
// at start: one model is probed (and the first log line says so), several are listed and serve
// exits 2 saying to set OPENAI_MODEL (or try --demo); no answer is one clear error, exit 2. The
// target is named after the endpoint's host. With HTTP_PROXY set, that read and the probes'
// requests all go through the proxy.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { startCountingProxy, type CountingProxy } from '../helpers/countingProxy.js';
import {
  CLI,
  ensureBuilt,
  fetchText,
  freePort,
  runCommand,
  startServe,
  waitFor,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';

/** The variables of the environment fallback, cleared so that the shell running the tests does not leak in. */
const CLEAR = {
  COHERENCY_CONFIG: '',
  OPENAI_MODEL: '',
  COHERENCY_MODEL: '',
  OPENAI_API_KEY: '',
  OPENAI_API_KEY_FILE: '',
  HTTP_PROXY: '',
  HTTPS_PROXY: '',
  NO_PROXY: '',
  http_proxy: '',
  https_proxy: '',
  no_proxy: '',
};
const KEY = 'sk-canary-served-model';

describe('serve from OPENAI_BASE_URL without a model', { timeout: 90_000 }, () => {
  const sims: Simulator[] = [];
  let serve: Child | undefined;
  let proxy: CountingProxy | undefined;
  after(async () => {
    await serve?.stop(5000);
    await proxy?.close();
    for (const s of sims) await s.close();
  });

  it('one model at /models: probes it, says so, names the target after the host; through HTTP_PROXY, every request goes through it', async () => {
    ensureBuilt();
    const sim = await startSimulator({ apiKey: KEY, listedModels: ['healthy'] });
    sims.push(sim);
    proxy = await startCountingProxy();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    serve = startServe(['--port', String(port), '--log-format', 'json'], {
      ...CLEAR,
      LOG_LEVEL: 'info',
      OPENAI_BASE_URL: sim.url,
      OPENAI_API_KEY: KEY,
      HTTP_PROXY: proxy.url.replace('http://', 'http://ops:proxy-pw-canary@'),
    });
    await waitReady(serve, base);
    const child = serve;
    const first = child.stdout().split('\n')[0] ?? '';
    assert.match(
      first,
      /config from \$OPENAI_BASE_URL: http:\/\/127\.0\.0\.1:\d+\/v1, model healthy \(the only one http:\/\/127\.0\.0\.1:\d+\/v1\/models lists\), key from \$OPENAI_API_KEY/,
      first,
    );
    assert.match(first, /1 target \(127-0-0-1\)/, first);
    const run = await waitFor(
      'a first run in /runs',
      async () => {
        const { body } = await fetchText(`${base}/runs`);
        return (JSON.parse(body) as { runs: { target: string; probe: string; verdict: string }[] }).runs[0];
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.deepEqual([run.target, run.verdict], ['127-0-0-1', 'ok']);
    // read first: the proxy records a request before the simulator sees it
    const simulated = sim.requests.length;
    const simOrigin = new URL(sim.url).origin;
    const proxied = proxy.requests.map((r) => `${r.method} ${r.target.replace(simOrigin, '')}`);
    assert.equal(proxied[0], 'GET /v1/models', proxied.join(', '));
    assert.ok(proxied.includes('POST /v1/chat/completions'), proxied.join(', '));
    // every chat request the simulator saw came through the proxy
    const chats = proxied.filter((p) => p === 'POST /v1/chat/completions').length;
    assert.ok(chats >= simulated && simulated > 0, `${chats} chat requests proxied, ${simulated} simulated`);
    assert.ok(proxy.requests.every((r) => r.auth === `Basic ${Buffer.from('ops:proxy-pw-canary').toString('base64')}`));
    assert.doesNotMatch(child.stdout() + child.stderr(), /proxy-pw-canary|sk-canary-served-model/);
  });

  it('several models: lists them and exits 2, saying to set OPENAI_MODEL and mentioning --demo', async () => {
    const sim = await startSimulator();
    sims.push(sim);
    const r = await runCommand(process.execPath, [CLI, 'serve', '--port', String(await freePort())], {
      env: { ...process.env, ...CLEAR, OPENAI_BASE_URL: sim.url },
      timeoutMs: 20_000,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: OPENAI_MODEL: is not set, and http:\/\/127\.0\.0\.1:\d+\/v1\/models lists \d+ models:\n {4}healthy\n/m,
      r.stderr,
    );
    assert.match(
      r.stderr,
      /Set OPENAI_MODEL \(or COHERENCY_MODEL\) to the one to probe, e\.g\. OPENAI_MODEL=\S+; to try the exporter without a server, run it with --demo\./,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('no answer at /models: one clear error, exit 2', async () => {
    const r = await runCommand(process.execPath, [CLI, 'serve', '--port', String(await freePort())], {
      env: { ...process.env, ...CLEAR, OPENAI_BASE_URL: `http://127.0.0.1:${await freePort()}/v1` },
      timeoutMs: 20_000,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /^error: OPENAI_MODEL: is not set, and the models could not be read from http:\/\/127\.0\.0\.1:\d+\/v1\/models: connect: .*ECONNREFUSED.*--demo/s,
      r.stderr,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('a proxy variable that is not a URL: one line, exit 2 (serve and probe)', async () => {
    const r = await runCommand(process.execPath, [CLI, 'serve', '--port', String(await freePort())], {
      env: {
        ...process.env,
        ...CLEAR,
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_MODEL: 'm',
        HTTPS_PROXY: 'socks5://u:pw-canary@p:1080',
      },
      timeoutMs: 20_000,
    });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim(), 'error: HTTPS_PROXY: socks5 proxies are not supported: use an http:// or https:// proxy');
    const p = await runCommand(process.execPath, [CLI, 'probe', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm'], {
      env: { ...process.env, ...CLEAR, http_proxy: 'http://[::1' },
      timeoutMs: 20_000,
    });
    assert.equal(p.code, 2, p.stderr);
    assert.equal(p.stderr.trim(), 'error: http_proxy: "http://[::1" is not a URL (write it as http://host:port)');
  });

  it('probe without --model: the one model /models lists, through HTTP_PROXY; several exit 2, no answer exits 3', async () => {
    const one = await startSimulator({ listedModels: ['healthy'] });
    const several = await startSimulator();
    sims.push(one, several);
    const counting = await startCountingProxy();
    try {
      const probe = (args: string[], extra: Record<string, string> = {}) =>
        runCommand(process.execPath, [CLI, 'probe', '--max-tokens', '300', ...args], {
          env: { ...process.env, ...CLEAR, ...extra },
          timeoutMs: 30_000,
        });
      const r = await probe(['--base-url', one.url], { HTTP_PROXY: counting.url });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /^model healthy: the only one http:\/\/127\.0\.0\.1:\d+\/v1\/models lists\n/, r.stderr);
      assert.match(r.stdout, /cli\/probe #0: OK/);
      const origin = new URL(one.url).origin;
      assert.deepEqual(
        counting.requests.map((q) => `${q.method} ${q.target.replace(origin, '')}`),
        ['GET /v1/models', 'POST /v1/chat/completions'],
      );

      const listed = await probe([], { OPENAI_BASE_URL: several.url });
      assert.equal(listed.code, 2, listed.stderr);
      assert.match(listed.stderr, /^error: --model: not given, and http:\/\/127\.0\.0\.1:\d+\/v1\/models lists \d+ models:\n {4}healthy\n/);
      assert.match(listed.stderr, /Pass --model \(or set OPENAI_MODEL\) to the one to probe, e\.g\. --model healthy;/);

      const dead = await probe(['--base-url', `http://127.0.0.1:${await freePort()}/v1`]);
      assert.equal(dead.code, 3, dead.stderr);
      assert.match(dead.stderr, /^error: --model: not given, and the models could not be read from .*ECONNREFUSED/);
    } finally {
      await counting.close();
    }
  });
});
