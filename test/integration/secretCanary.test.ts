// Issue 34: a target that echoes its credentials in everything it says about itself (its `server`
// and version headers, system_fingerprint in every chunk, the model it names, its /models entry,
// its info endpoint, an error body), whole, lower-cased, upper-cased and as a 20-character
// prefix. Neither the daemon (/probe, /runs, /runs/ID as JSON and page, the index, /metrics, the
// stored runs, its log lines) nor the CLI (report, --json, --save, --save-baseline, --baseline)
// may give out any 8-character piece of them.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CLI,
  ensureBuilt,
  fetchText,
  RUN_PROBE,
  freePort,
  makeTempDir,
  runCommand,
  startServe,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';
import { assertNoSecret, echoVariant, filesUnder } from '../helpers/secretLeaks.js';

const KEY = 'sk-canaryA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
const HEADER_KEY = 'hk-canaryQ9w8E7r6T5y4U3i2O1p0Zx';
const CANARIES = [KEY, HEADER_KEY];

function assertClean(where: string, text: string): void {
  assertNoSecret(where, text, CANARIES, 'the key');
}

/**
 * An OpenAI-compatible upstream that learns the key of each request (a bearer token or
 * X-Api-Key) and echoes it everywhere; with `info`, it also answers SGLang's info endpoint
 * (read without the key: it echoes the one it learned).
 */
function echoingUpstream(info: boolean): Server {
  let learned = 'none-yet';
  let n = 0;
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const auth = String(req.headers['authorization'] ?? '').replace(/^Bearer /, '');
    const key = auth || String(req.headers['x-api-key'] ?? '');
    if (key) learned = key;
    const v = echoVariant(learned, n);
    const identity = { server: `srv${n}-${v}`, [`x-${learned.toLowerCase()}-version`]: `v-${v}` };
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(
          JSON.stringify({
            object: 'list',
            data: [
              { id: 'm', root: `/models/${v}`, owned_by: v.toUpperCase(), max_model_len: 4096 },
              { id: `m-${learned}`, owned_by: 'x' },
            ],
          }),
        );
      } else if (path === '/get_server_info' && info) {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ version: `0.4.${n}-${v}`, model_path: `/models/${v}`, kv_cache_dtype: `fp8-${v}`, context_length: 4096 }));
      } else if (path === '/v1/chat/completions') {
        n++;
        const model = (JSON.parse(body || '{}') as { model?: string }).model;
        if (model === 'broken') {
          res.writeHead(401, { 'content-type': 'application/json', ...identity });
          res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${learned.slice(0, 20)}****. You sent ${v}.` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', ...identity, server: `srv${n}-${echoVariant(learned, n)}` });
        const w = echoVariant(learned, n);
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
        for (let i = 0; i < 60; i++) out += chunk({ content: `Your key is ${w} and it works. ` });
        out += chunk({}, 'stop');
        out += 'data: [DONE]\n\n';
        res.end(out);
      } else {
        res.writeHead(404, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ error: `no ${path} for ${learned}` }));
      }
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

function configYaml(withInfo: string, headerOnly: string, storage: string): string {
  return `storage:
  dir: ${storage}
targets:
  - name: bearer
    baseUrl: ${withInfo}
    model: m
    apiKeyEnv: CANARY_KEY
    probes: [loop]
  - name: header
    baseUrl: ${headerOnly}
    model: m
    headers:
      X-Api-Key: ${HEADER_KEY}
    probes: [loop]
  - name: broken
    baseUrl: ${withInfo}
    model: broken
    apiKeyEnv: CANARY_KEY
    probes: [loop]
probes:
  - name: loop
    prompt: Write a long essay about the sea.
    maxTokens: 600
`;
}

const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_'))),
  CANARY_KEY: KEY,
};

describe('secret canary: a target that echoes its key in what it says about itself', { timeout: 120_000 }, () => {
  const tmp = makeTempDir('canary');
  const withInfo = echoingUpstream(true);
  const headerOnly = echoingUpstream(false);
  let serve: Child | undefined;
  let base = '';
  let config = '';
  const storage = join(tmp.dir, 'runs');

  before(async () => {
    ensureBuilt();
    config = join(tmp.dir, 'canary.yaml');
    writeFileSync(config, configYaml(await listen(withInfo), await listen(headerOnly), storage));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serve = startServe(['--config', config, '--port', String(port)], { ...env, LOG_LEVEL: 'debug' });
    await waitReady(serve, base);
  });

  after(async () => {
    await serve?.stop(2000);
    await new Promise((r) => withInfo.close(r));
    await new Promise((r) => headerOnly.close(r));
    tmp.remove();
  });

  it('the daemon gives out no piece of the key: /probe, /runs, /runs/ID, the index, /metrics, stored runs, logs', async () => {
    const outputs: Array<[string, string]> = [];
    const ids: string[] = [];
    // three runs each: the second and third see another system_fingerprint and server (a change)
    for (let round = 0; round < 3; round++)
      for (const target of ['bearer', 'header', 'broken']) {
        const r = await fetchText(`${base}/probe?target=${target}&probe=loop`, 30_000, RUN_PROBE);
        assert.equal(r.status, 200, r.body);
        outputs.push([`/probe ${target} #${round}`, r.body]);
        ids.push((JSON.parse(r.body) as { id: string }).id);
      }

    for (const path of ['/runs', '/runs?format=html', '/', '/metrics'])
      outputs.push([path, (await fetchText(`${base}${path}`, 10_000)).body]);
    for (const id of ids) {
      outputs.push([`/runs/${id}`, (await fetchText(`${base}/runs/${encodeURIComponent(id)}`)).body]);
      outputs.push([`/runs/${id}?format=html`, (await fetchText(`${base}/runs/${encodeURIComponent(id)}?format=html`)).body]);
    }
    const stored = filesUnder(storage);
    outputs.push(...stored);
    await serve?.stop(5000);
    const logs = `${serve?.stdout()}\n${serve?.stderr()}`;
    outputs.push(['the log', logs]);
    for (const [where, text] of outputs) assertClean(where, text);

    // and every path was exercised: the runs failed (stored), the fingerprint holds what the
    // target echoed (redacted), a change was seen, and the info series names the echoed server
    const probe = JSON.parse(outputs[3]?.[1] ?? '{}') as { verdict: string; fingerprint?: { systemFingerprint: string | null } };
    assert.equal(probe.verdict, 'fail', outputs[3]?.[1].slice(0, 500));
    assert.match(String(probe.fingerprint?.systemFingerprint), /^fp\d+-\[redacted\]$/, JSON.stringify(probe.fingerprint));
    assert.ok(stored.length >= 3, `stored runs: ${stored.length}`);
    const metrics = outputs.find(([w]) => w === '/metrics')?.[1] ?? '';
    assert.match(metrics, /coherency_target_info\{[^}]*target="header"[^}]*server="srv\d+-\[redacted\]"/, metrics.slice(0, 3000));
    assert.match(outputs.find(([w]) => w === '/')?.[1] ?? '', /since the change/);
    assert.match(logs, /target bearer changed: .*fp\d+-\[redacted\]/, 'a change was logged');
  });

  it('the CLI probe gives out no piece of the key: report, --json, --save, --save-baseline and --baseline', async () => {
    const save = join(tmp.dir, 'saved');
    const baseline = join(tmp.dir, 'baseline.json');
    const args = ['probe', '--config', config, '--target', 'bearer', '--target', 'header', '--target', 'broken'];
    const outputs: Array<[string, string]> = [];
    const first = await runCommand(process.execPath, [CLI, ...args, '--save', save, '--save-baseline', baseline], {
      timeoutMs: 60_000,
      env,
    });
    assert.ok(first.code === 1 || first.code === 3, `exit ${first.code}: ${first.stderr}`);
    outputs.push(['probe report', first.stdout], ['probe stderr', first.stderr]);
    for (const extra of [['--json'], ['--baseline', baseline], ['--baseline', baseline, '--json']]) {
      const r = await runCommand(process.execPath, [CLI, ...args, ...extra], { timeoutMs: 60_000, env });
      assert.notEqual(r.code, 2, r.stderr);
      outputs.push([`probe ${extra.join(' ')}`, r.stdout], [`probe ${extra.join(' ')} stderr`, r.stderr]);
    }
    const file = readFileSync(baseline, 'utf8');
    assert.match(file, /\[redacted\]/, 'the baseline holds what the target echoed, redacted');
    outputs.push(['--save-baseline file', file], ...filesUnder(save));
    for (const [where, text] of outputs) assertClean(where, text);
  });
});
