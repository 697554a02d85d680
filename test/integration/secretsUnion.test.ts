// Issue 34's closing note: redaction used only the target's own secrets. Here two targets share
// one upstream (a proxy with two virtual keys) that echoes the secrets of other clients in what it
// answers target beta: alpha's key, the OTLP exporter's credential header and the daemon's own
// token, in its `server` header, system_fingerprint, the model it names, its /models entry, an
// error body and the answer text, whole, lower-cased, upper-cased and as a 20-character prefix.
// Neither the daemon (/probe, /runs, /runs/ID as JSON and page, the index, /metrics, the stored
// runs, its log lines) nor the CLI (report, --json, --save) may give out any 8-character piece.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CLI,
  ensureBuilt,
  fetchText,
  freePort,
  makeTempDir,
  RUN_PROBE,
  runCommand,
  startServe,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';
import { assertNoSecret, echoVariant, filesUnder } from '../helpers/secretLeaks.js';

const ALPHA_KEY = 'sk-alphaZ9y8X7w6V5u4T3s2R1q0P9o8N7m6';
const BETA_KEY = 'sk-betaK2j3H4g5F6d7S8a9L0k1J2h3';
const OTLP_SECRET = 'otlpQ1w2E3r4T5y6U7i8O9p0Aa';
const TOKEN = 'daemonTokenM4n5B6v7C8x9Z0l1K2j3';
/** The key of a target a reload adds: the upstream echoes it from then on. */
const GAMMA_KEY = 'sk-gammaR5e4W3q2A1s2D3f4G5h6';
/** What the upstream echoes to beta: secrets that are not beta's own (gamma's joins after the reload). */
const FOREIGN = [ALPHA_KEY, OTLP_SECRET, TOKEN];
const CANARIES = [...FOREIGN, GAMMA_KEY];

function assertClean(where: string, text: string): void {
  assertNoSecret(where, text, CANARIES, 'a foreign secret');
}

/** Every foreign secret in variant n, joined. */
const echo = (n: number) => FOREIGN.map((s) => echoVariant(s, n)).join('.');

/** One OpenAI-compatible upstream behind both targets: whatever the caller, it echoes the foreign secrets. */
function sharedUpstream(): Server {
  let n = 0;
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const v = echo(n);
    const identity = { server: `proxy${n}-${v}`, 'x-litellm-version': `1.${n}-${v}` };
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', root: `/models/${v}`, owned_by: v.toUpperCase() }, { id: `m-${v}` }] }));
      } else if (path === '/v1/chat/completions') {
        n++;
        const model = (JSON.parse(body || '{}') as { model?: string }).model;
        const w = echo(n);
        if (model === 'broken') {
          res.writeHead(401, { 'content-type': 'application/json', ...identity });
          res.end(JSON.stringify({ error: { message: `Incorrect API key provided. Other keys in use: ${w}.` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', ...identity, server: `proxy${n}-${w}` });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({
            id: 'c1',
            object: 'chat.completion.chunk',
            model: `m-${w}`,
            system_fingerprint: `fp${n}-${w}`,
            choices: [{ index: 0, delta, finish_reason: finish }],
          })}\n\n`;
        let out = chunk({ role: 'assistant', content: '' });
        // a repeated sentence: the run fails, so the daemon stores it
        for (let i = 0; i < 60; i++) out += chunk({ content: `The keys are ${w} and they work. ` });
        out += chunk({}, 'stop');
        out += 'data: [DONE]\n\n';
        res.end(out);
      } else {
        res.writeHead(404, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ error: `no ${path} for ${v}` }));
      }
    });
  });
}

function configYaml(baseUrl: string, keyFile: string, storage: string, gammaKeyFile?: string): string {
  const gamma = gammaKeyFile
    ? `  - name: gamma
    baseUrl: ${baseUrl}
    model: m
    apiKeyFile: ${gammaKeyFile}
    probes: [loop]
`
    : '';
  return `storage:
  dir: ${storage}
targets:
  - name: alpha
    baseUrl: ${baseUrl}
    model: m
    apiKeyEnv: ALPHA_KEY
    probes: [loop]
  - name: beta
    baseUrl: ${baseUrl}
    model: m
    apiKeyFile: ${keyFile}
    probes: [loop]
  - name: beta-broken
    baseUrl: ${baseUrl}
    model: broken
    apiKeyFile: ${keyFile}
    probes: [loop]
${gamma}probes:
  - name: loop
    prompt: Write a long essay about the sea.
    maxTokens: 600
`;
}

const env = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_') && !k.startsWith('OTEL_')),
  ),
  ALPHA_KEY,
  COHERENCY_AUTH_TOKEN: TOKEN,
  OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${OTLP_SECRET}`,
};
const auth = { authorization: `Bearer ${TOKEN}` };

describe('secrets union: a shared upstream that echoes other clients secrets to beta', { timeout: 120_000 }, () => {
  const tmp = makeTempDir('secrets-union');
  const upstream = sharedUpstream();
  let serve: Child | undefined;
  let base = '';
  let config = '';
  let baseUrl = '';
  let keyFile = '';
  const storage = join(tmp.dir, 'runs');

  before(async () => {
    ensureBuilt();
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1`;
    keyFile = join(tmp.dir, 'beta.key');
    writeFileSync(keyFile, `${BETA_KEY}\n`);
    config = join(tmp.dir, 'union.yaml');
    writeFileSync(config, configYaml(baseUrl, keyFile, storage));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serve = startServe(['--config', config, '--port', String(port)], { ...env, LOG_LEVEL: 'debug' });
    await waitReady(serve, base);
  });

  after(async () => {
    await serve?.stop(2000);
    await new Promise((r) => upstream.close(r));
    tmp.remove();
  });

  it('the daemon gives out no piece of them: /probe, /runs, /runs/ID, the index, /metrics, stored runs, logs', async () => {
    const outputs: Array<[string, string]> = [];
    const ids: string[] = [];
    for (let round = 0; round < 2; round++)
      for (const target of ['alpha', 'beta', 'beta-broken']) {
        const r = await fetchText(`${base}/probe?target=${target}&probe=loop`, 30_000, {
          ...RUN_PROBE,
          headers: { ...RUN_PROBE.headers, ...auth },
        });
        assert.equal(r.status, 200, r.body);
        outputs.push([`/probe ${target} #${round}`, r.body]);
        ids.push((JSON.parse(r.body) as { id: string }).id);
      }
    // a reload adds target gamma, whose key the upstream echoes from then on: it is redacted at once
    const gammaKeyFile = join(tmp.dir, 'gamma.key');
    writeFileSync(gammaKeyFile, GAMMA_KEY);
    writeFileSync(config, configYaml(baseUrl, keyFile, storage, gammaKeyFile));
    const reloaded = await fetchText(`${base}/-/reload`, 10_000, { method: 'POST', headers: auth });
    assert.equal(reloaded.status, 200, reloaded.body);
    FOREIGN.push(GAMMA_KEY);
    const r = await fetchText(`${base}/probe?target=beta&probe=loop`, 30_000, { ...RUN_PROBE, headers: { ...RUN_PROBE.headers, ...auth } });
    assert.equal(r.status, 200, r.body);
    assert.match(r.body, /\[redacted\]/);
    outputs.push(['/probe beta after the reload', r.body]);
    ids.push((JSON.parse(r.body) as { id: string }).id);
    const get = async (path: string) => {
      const r = await fetchText(`${base}${path}`, 10_000, { headers: auth });
      assert.equal(r.status, 200, `${path}: ${r.body.slice(0, 300)}`);
      return r.body;
    };
    // the daemon's token is in force: the pages read above are its own answers, not a login page
    assert.equal((await fetchText(`${base}/runs`, 10_000)).status, 401);
    for (const path of ['/runs', '/runs?format=html', '/', '/metrics']) outputs.push([path, await get(path)]);
    for (const id of ids) {
      outputs.push([`/runs/${id}`, await get(`/runs/${encodeURIComponent(id)}`)]);
      outputs.push([`/runs/${id}?format=html`, await get(`/runs/${encodeURIComponent(id)}?format=html`)]);
    }
    const stored = filesUnder(storage);
    outputs.push(...stored);
    await serve?.stop(5000);
    outputs.push(['the log', `${serve?.stdout()}\n${serve?.stderr()}`]);
    for (const [where, text] of outputs) assertClean(where, text);

    // every path was exercised: beta's run failed (stored) and its fingerprint holds the echo, redacted
    const beta = JSON.parse(outputs[1]?.[1] ?? '{}') as { verdict: string; fingerprint?: { systemFingerprint: string | null } };
    assert.equal(beta.verdict, 'fail', outputs[1]?.[1].slice(0, 500));
    assert.match(String(beta.fingerprint?.systemFingerprint), /^fp\d+-\[redacted\]/, JSON.stringify(beta.fingerprint));
    assert.ok(stored.length >= 3, `stored runs: ${stored.length}`);
    const metrics = outputs.find(([w]) => w === '/metrics')?.[1] ?? '';
    assert.match(metrics, /coherency_target_info\{[^}]*target="beta"[^}]*server="proxy\d+-\[redacted\]/, metrics.slice(0, 3000));
  });

  it('the CLI probe gives out no piece of them: report, --json and --save', async () => {
    const save = join(tmp.dir, 'saved');
    const args = ['probe', '--config', config, '--target', 'beta', '--target', 'beta-broken'];
    const outputs: Array<[string, string]> = [];
    const first = await runCommand(process.execPath, [CLI, ...args, '--save', save], { timeoutMs: 60_000, env });
    assert.ok(first.code === 1 || first.code === 3, `exit ${first.code}: ${first.stderr}`);
    outputs.push(['probe report', first.stdout], ['probe stderr', first.stderr]);
    const json = await runCommand(process.execPath, [CLI, ...args, '--json'], { timeoutMs: 60_000, env });
    assert.notEqual(json.code, 2, json.stderr);
    outputs.push(['probe --json', json.stdout], ['probe --json stderr', json.stderr]);
    const saved = filesUnder(save);
    assert.ok(saved.length >= 2, `saved files: ${saved.length}`);
    outputs.push(...saved);
    for (const [where, text] of outputs) assertClean(where, text);
  });
});
