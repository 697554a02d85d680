import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { captureLogger } from '../helpers/captureLogger.js';

const TOKEN = 'test-auth-token-0123456789';
const CANARY = 'sk-canary-7f3a9c1e5b2d4068';

function yaml(simUrl: string, crashUrl: string, storageDir: string, extraTargets = ''): string {
  return `
server: { host: 127.0.0.1, port: 0, authToken: ${TOKEN} }
storage: { dir: ${JSON.stringify(storageDir)}, maxRuns: 50, maxBytes: 10000000, historySize: 50 }
targets:
  - { name: good, baseUrl: ${simUrl}, model: healthy, apiKeyEnv: CANARY_KEY, probes: [p] }
  - { name: bad, baseUrl: ${simUrl}, model: "collapse-sentence@300", apiKeyEnv: CANARY_KEY, probes: [p] }
  - { name: denied, baseUrl: ${simUrl}, model: fault-401, apiKeyEnv: CANARY_KEY, probes: [p] }
  - { name: crash, baseUrl: ${crashUrl}, model: healthy, apiKeyEnv: CANARY_KEY, probes: [p] }
${extraTargets}
probes:
  - { name: p, prompt: "Write a long article about storage engines.", maxTokens: 1500, minTokens: 0 }
`;
}

describe('daemon: auth, run storage, reload and secrets', () => {
  let sim: Simulator;
  let crashServer: Server;
  let crashUrl: string;
  let dir: string;
  let configPath: string;
  const env = { CANARY_KEY: CANARY };
  const log = captureLogger();
  let daemon: Daemon;
  const responses: string[] = [];
  const seenAuth: string[] = [];
  const seenReads: string[] = [];

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${daemon.url}${path}`, init);
    const body = await res.text();
    responses.push(body);
    return { status: res.status, body };
  };
  const authed = { headers: { authorization: `Bearer ${TOKEN}` } };

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
    // A server that starts a stream, echoes the Authorization header back in an error, then crashes.
    crashServer = createServer((req, res) => {
      // fingerprint reads: /models under baseUrl carries the key, the info endpoints at the origin's root none
      if (!req.url?.endsWith('/chat/completions')) {
        seenReads.push(`${req.url} ${String(req.headers.authorization)}`);
        res.writeHead(404).end();
        return;
      }
      seenAuth.push(String(req.headers.authorization));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n`);
      res.write(`data: {"error":{"message":"bad key ${req.headers.authorization}"}}\n\n`);
      res.destroy();
    });
    await new Promise<void>((r) => crashServer.listen(0, '127.0.0.1', r));
    const addr = crashServer.address() as { port: number };
    crashUrl = `http://127.0.0.1:${addr.port}/v1`;
    dir = await mkdtemp(join(tmpdir(), 'coherency-daemon-'));
    configPath = join(dir, 'config.yaml');
    await writeFile(configPath, yaml(sim.url, crashUrl, join(dir, 'runs')));
    const loaded = await loadConfig(configPath, env);
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
    daemon = await startDaemon({ config: loaded.config, configPath, logger: log.logger, env });
  });

  after(async () => {
    await daemon?.close();
    await sim?.close();
    await new Promise((r) => crashServer?.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  test('requests without the token get 401; with it they run', async () => {
    assert.equal((await get('/probe?target=good&probe=p')).status, 401);
    assert.equal((await get('/probe?target=good&probe=p', { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.equal((await get('/runs')).status, 401);
    assert.equal((await get('/-/reload', { method: 'POST' })).status, 401);
    assert.equal((await get('/metrics')).status, 200, '/metrics stays open without metricsAuth');
    assert.equal((await get('/-/healthy')).status, 200);
    const ok = await get('/probe?target=good&probe=p', authed);
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.body).verdict, 'ok');
  });

  test('a failing sample is stored with its text and an HTTP error and a crashed stream are errors', async () => {
    const bad = JSON.parse((await get('/probe?target=bad&probe=p', authed)).body);
    assert.equal(bad.verdict, 'fail');
    const denied = JSON.parse((await get('/probe?target=denied&probe=p', authed)).body);
    assert.equal(denied.verdict, 'error');
    assert.equal(denied.samples[0].error.type, 'http_status');
    const crash = JSON.parse((await get('/probe?target=crash&probe=p', authed)).body);
    assert.equal(crash.verdict, 'error');
    const run = JSON.parse((await get(`/runs/${bad.id}`, authed)).body);
    assert.match(run.samples[0].content, /(.{20,}).*\1.*\1/s, 'the collapsed text is readable');
    for (let i = 0; i < 50 && (await readdir(join(dir, 'runs'))).length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal((await readdir(join(dir, 'runs'))).length, 3, 'fail and error runs are stored, the ok run is not');
  });

  test('a failing sample is readable through /runs/:id after a restart', async () => {
    const before = JSON.parse((await get('/runs?verdict=fail', authed)).body).runs;
    assert.equal(before.length, 1);
    await daemon.close();
    const loaded = await loadConfig(configPath, env);
    assert.ok(loaded.ok);
    daemon = await startDaemon({ config: loaded.config, configPath, logger: log.logger, env });
    const list = JSON.parse((await get('/runs', authed)).body).runs;
    assert.deepEqual(list.map((r: { target: string }) => r.target).sort(), ['bad', 'crash', 'denied']);
    const run = JSON.parse((await get(`/runs/${before[0].id}`, authed)).body);
    assert.equal(run.verdict, 'fail');
    assert.ok(run.samples[0].content.length > 1000);
  });

  test('reload with a broken file keeps the running config and sets the gauge to 0; a good one applies', async () => {
    await writeFile(configPath, 'targets: [ { name: BAD } ]\nprobes: []\n');
    const res = await get('/-/reload', { method: 'POST', ...authed });
    assert.equal(res.status, 400);
    assert.ok(JSON.parse(res.body).error.errors.length >= 2);
    let metrics = (await get('/metrics')).body;
    assert.match(metrics, /^coherency_config_last_reload_successful 0$/m);
    assert.equal((await get('/probe?target=good&probe=p', authed)).status, 200, 'the old config still runs');

    // Remove the "denied" target: its series go away.
    await writeFile(configPath, yaml(sim.url, crashUrl, join(dir, 'runs')).replace(/^.*name: denied.*$/m, ''));
    await get('/probe?target=denied&probe=p', authed);
    assert.equal((await get('/-/reload', { method: 'POST', ...authed })).status, 200);
    metrics = (await get('/metrics')).body;
    assert.match(metrics, /^coherency_config_last_reload_successful 1$/m);
    assert.doesNotMatch(metrics, /target="denied"/);
    assert.equal((await get('/probe?target=denied&probe=p', authed)).status, 404);
  });

  test('metrics.detail applies at start: a reload that changes it warns and keeps the running set', async () => {
    await writeFile(configPath, `${yaml(sim.url, crashUrl, join(dir, 'runs'))}metrics: { detail: full }\n`);
    assert.equal((await get('/-/reload', { method: 'POST', ...authed })).status, 200);
    assert.match(log.text(), /metrics\.detail applies after a restart/);
    assert.equal((await get('/probe?target=good&probe=p', authed)).status, 200);
    const metrics = (await get('/metrics')).body;
    assert.match(metrics, /coherency_last_output_compression_ratio\{target="good",probe="p",channel="content"\}/);
    assert.doesNotMatch(metrics, /coherency_inter_token_latency_seconds|coherency_output_longest_word_run/, 'still basic');
  });

  test('the API key appears nowhere: logs, responses, stored runs, metrics', async () => {
    responses.push((await get('/metrics')).body);
    const stored = await Promise.all((await readdir(join(dir, 'runs'))).map((f) => readFile(join(dir, 'runs', f), 'utf8')));
    const everything = [log.text(), ...responses, ...stored].join('\n');
    assert.ok(log.text().length > 1000, 'the logger did write');
    assert.ok(
      seenAuth.length > 0 && seenAuth.every((a) => a === `Bearer ${CANARY}`),
      'the key did reach the target, and the target echoed it back',
    );
    assert.ok(seenReads.includes(`/v1/models Bearer ${CANARY}`), seenReads.join(', '));
    for (const read of seenReads.filter((r) => !r.startsWith('/v1/models '))) assert.match(read, / undefined$/, 'no key outside baseUrl');
    assert.equal(everything.includes(CANARY), false, 'the canary key leaked');
    assert.equal(everything.includes(CANARY.slice(3)), false, 'a part of the canary key leaked');
  });
});
