import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { redactText, secretsOf } from '../../src/client/redactSecrets.js';
import { freePort, stopChild } from '../childProcess.js';
import { echoVariant } from '../../test/helpers/secretLeaks.js';
import { check, noSecretIn, runCases, runCli, serveDaemon } from './shared.js';

/**
 * Issue 34: the fault cases of a target that echoes its credentials in what it says about
 * itself: its `server` and version headers, system_fingerprint and the model in every chunk,
 * its /models entry, its info endpoint (read without the key: it echoes the one it learned),
 * an error body; whole, lower-cased, upper-cased, or as a 20-character prefix. One daemon with
 * a bearer-key target and an X-Api-Key target, then the CLI. A case holds when no 8-character
 * piece of a key, in any case, is in what it looked at.
 */

const KEY = 'sk-Zq81xCanaryA1b2C3d4E5f6G7h8I9j0K1L2';
const HEADER_KEY = 'hk-Wv27yCanaryQ9w8E7r6T5y4U3i2';

const clean = (where: Array<[string, string]>): string => noSecretIn(where, [KEY, HEADER_KEY], 'the key');

/** An upstream that learns the key of each request and echoes it in everything it says about itself (with `info`, in /version too). */
function echoingUpstream(info: boolean): Server {
  let learned = 'none-yet';
  let n = 0;
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const key = String(req.headers['authorization'] ?? '').replace(/^Bearer /, '') || String(req.headers['x-api-key'] ?? '');
    if (key) learned = key;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const v = echoVariant(learned, n);
      const identity = { server: `srv${n}-${v}`, 'x-engine-version': `v-${v}` };
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ data: [{ id: 'm', root: `/models/${v}`, owned_by: v, max_model_len: 4096 }] }));
      } else if (path === '/version' && info) {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ version: `0.6.${n}-${v}` }));
      } else if (path === '/v1/chat/completions') {
        n++;
        const w = echoVariant(learned, n);
        if ((JSON.parse(body || '{}') as { model?: string }).model === 'broken') {
          res.writeHead(401, { 'content-type': 'application/json', ...identity });
          res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${learned.slice(0, 20)}****` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', server: `srv${n}-${w}`, 'x-engine-version': `v-${w}` });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({ model: `m-${w}`, system_fingerprint: `fp${n}-${w}`, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        let out = '';
        for (let i = 0; i < 40; i++) out += chunk({ content: `Your key is ${w}. ` });
        res.end(`${out}${chunk({}, 'stop')}data: [DONE]\n\n`);
      } else {
        res.writeHead(404).end();
      }
    });
  });
}

interface Daemon {
  url: string;
  child: ChildProcess;
  lines: string[];
}

async function startDaemon(configPath: string, port: number, env: Record<string, string>): Promise<Daemon> {
  return serveDaemon(configPath, port, { env: { LOG_LEVEL: 'debug', ...env }, args: ['--port', String(port)] });
}

async function get(url: string, timeoutMs = 30_000): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return res.text();
}

/** Starts a run as a client does (a JSON POST); anything but 200 is the case failing to run, not a clean answer. */
async function startRun(url: string, timeoutMs = 60_000): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    }),
  );
}

/** Milliseconds of redactText over `chars` characters of prose with pieces of a 40-character key spread through it (the best of 3). */
function redactMs(chars: number): number {
  const secrets = secretsOf({ authorization: `Bearer ${KEY}` });
  const line = `${'The harbour wakes before the town does. '.repeat(25)}${KEY.slice(3, 28)} `;
  const text = line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    redactText(text, secrets);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

export async function secretsCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const bearerUp = echoingUpstream(true);
  const headerUp = echoingUpstream(false);
  const bearerPort = await listen(bearerUp);
  const headerPort = await listen(headerUp);
  const storage = join(root, 'secrets-runs');
  const configPath = join(root, 'secrets.yaml');
  writeFileSync(
    configPath,
    `storage: { dir: ${JSON.stringify(storage)} }
targets:
  - { name: bearer, baseUrl: "http://127.0.0.1:${bearerPort}/v1", model: m, apiKeyEnv: SECRETS_CANARY_KEY, probes: [p] }
  - { name: header, baseUrl: "http://127.0.0.1:${headerPort}/v1", model: m, headers: { X-Api-Key: ${HEADER_KEY} }, probes: [p] }
  - { name: broken, baseUrl: "http://127.0.0.1:${bearerPort}/v1", model: broken, apiKeyEnv: SECRETS_CANARY_KEY, probes: [p] }
probes:
  - { name: p, prompt: "Write about the sea.", maxTokens: 400 }
`,
  );
  const env = { SECRETS_CANARY_KEY: KEY };
  const cases: Array<[string, () => Promise<string>]> = [];
  let d: Daemon | null = null;
  try {
    d = await startDaemon(configPath, await freePort(), env);
    const daemon = d;
    const answers: Array<[string, string]> = [];
    const probe = async (target: string) => {
      const body = await startRun(`${daemon.url}/probe?target=${target}&probe=p`);
      answers.push([`/probe ${target}`, body]);
      return JSON.parse(body) as { id: string; verdict: string; fingerprint?: Record<string, unknown> };
    };
    cases.push(
      [
        'API key echoed in server header, system_fingerprint, model, /models, /version: not in /probe or /runs/ID',
        async () => {
          const ids: string[] = [];
          for (let round = 0; round < 3; round++) ids.push((await probe('bearer')).id);
          for (const id of ids) {
            answers.push([`/runs/${id}`, await get(`${daemon.url}/runs/${id}`)]);
            answers.push([`/runs/${id} page`, await get(`${daemon.url}/runs/${id}?format=html`)]);
          }
          return clean(answers);
        },
      ],
      [
        'X-Api-Key header echoed the same way: not in /probe or /runs/ID',
        async () => {
          const out: Array<[string, string]> = [];
          for (let round = 0; round < 3; round++) {
            const r = await probe('header');
            out.push(
              [`/probe header #${round}`, JSON.stringify(r)],
              [`/runs/${r.id} page`, await get(`${daemon.url}/runs/${r.id}?format=html`)],
            );
          }
          return clean(out);
        },
      ],
      [
        'a 20-character key prefix in an error body: not in /probe',
        async () => clean([['/probe broken', JSON.stringify(await probe('broken'))]]),
      ],
      [
        'the echo in /metrics (coherency_target_info labels), /runs, the index change line',
        async () => {
          const metrics = await get(`${daemon.url}/metrics`);
          const info = metrics.split('\n').filter((l) => l.startsWith('coherency_target_info{'));
          check(info.length >= 2, `${info.length} coherency_target_info series`);
          const index = await get(`${daemon.url}/`);
          check(index.includes('since the change'), 'no change line on the index (the case did not exercise it)');
          return `${clean([
            ['/metrics', metrics],
            ['/runs', await get(`${daemon.url}/runs`)],
            ['/runs page', await get(`${daemon.url}/runs?format=html`)],
            ['/', index],
          ])}; ${info.find((l) => l.includes('target="header"')) ?? info[0]}`;
        },
      ],
      [
        'the echo in stored run files and log lines (the change warn line included)',
        async () => {
          const files = readdirSync(storage).map((f) => [f, readFileSync(join(storage, f), 'latin1')] as [string, string]);
          check(files.length > 0, 'no stored run (the case did not exercise storage)');
          const log = daemon.lines.join('');
          check(/changed: /.test(log), 'no change was logged (the case did not exercise the warn line)');
          return clean([...files, ['the log', log]]);
        },
      ],
    );
    await runCases(cases, results);
  } finally {
    if (d) await stopChild(d.child, 5000);
  }

  await runCases(
    [
      [
        'CLI probe --json and --save-baseline with the echoing targets',
        async () => {
          const baseline = join(root, 'secrets-baseline.json');
          const args = ['probe', '--config', configPath, '--target', 'bearer', '--target', 'header', '--target', 'broken'];
          const first = await runCli([...args, '--json', '--save-baseline', baseline], env);
          check(first.code === 1 || first.code === 3, `exit ${first.code}: ${first.out.slice(0, 300)}`);
          const second = await runCli([...args, '--baseline', baseline], env);
          return clean([
            ['probe --json', first.out],
            ['the baseline file', readFileSync(baseline, 'utf8')],
            ['probe --baseline', second.out],
          ]);
        },
      ],
      [
        'redaction of 1 MB and 8 MB of text with a 40-character key stays linear',
        async () => {
          const one = redactMs(1_000_000);
          const eight = redactMs(8_000_000);
          // linear is 8 times; quadratic would be 64 times (the machine is shared: room for noise)
          check(eight < one * 32, `8 MB took ${eight.toFixed(0)} ms, 1 MB ${one.toFixed(0)} ms`);
          return `1 MB ${one.toFixed(1)} ms, 8 MB ${eight.toFixed(1)} ms`;
        },
      ],
    ],
    results,
  );
  await new Promise<void>((r) => bearerUp.close(() => r()));
  await new Promise<void>((r) => headerUp.close(() => r()));
}
