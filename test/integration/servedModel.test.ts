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

  it('a proxy variable that is not a URL: one line, exit 2', async () => {
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
  });
});
