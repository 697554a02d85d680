import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { redactText } from '../../src/client/redactSecrets.js';
import { freePort, stopChild } from '../childProcess.js';
import { echoVariant, filesUnder } from '../../test/helpers/secretLeaks.js';
import { check, noSecretIn, runCases, runCli, serveDaemon, type ServedDaemon } from './shared.js';

/**
 * Issue 34's closing note: redaction used only the target's own secrets. Two targets behind one
 * upstream (a proxy with two virtual keys) that echoes, in what it answers beta, the secrets of
 * other clients: alpha's key, the OTLP exporter's credential header and the daemon's own token,
 * in its `server` header, system_fingerprint, model, /models entry, an error body and the answer
 * text; whole, lower-cased, upper-cased or as a 20-character prefix. Then a reload adds target
 * gamma, whose key the upstream echoes from then on. A case holds when no 8-character piece of
 * those secrets, in any case, is in what it looked at.
 */

const ALPHA_KEY = 'sk-alphaU7n1Onz9y8X7w6V5u4T3s2R1q0P9';
const BETA_KEY = 'sk-betaU7n1K2j3H4g5F6d7S8a9L0';
const OTLP_SECRET = 'otlpU7n1Q1w2E3r4T5y6U7i8O9';
const TOKEN = 'daemonU7n1M4n5B6v7C8x9Z0l1K2';
const GAMMA_KEY = 'sk-gammaU7n1R5e4W3q2A1s2D3f4G5';
const CANARIES = [ALPHA_KEY, OTLP_SECRET, TOKEN, GAMMA_KEY];

const clean = (where: Array<[string, string]>): string => noSecretIn(where, CANARIES, 'a foreign secret');

/** One upstream behind every target; `echoed` is what it gives out (it may grow). */
function sharedUpstream(echoed: string[]): Server {
  let n = 0;
  const echo = (k: number) => echoed.map((s) => echoVariant(s, k)).join('.');
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const v = echo(n);
      const identity = { server: `proxy${n}-${v}`, 'x-litellm-version': `1.${n}-${v}` };
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json', ...identity });
        res.end(JSON.stringify({ data: [{ id: 'm', root: `/models/${v}`, owned_by: v }, { id: `m-${v}` }] }));
      } else if (path === '/v1/chat/completions') {
        n++;
        const w = echo(n);
        if ((JSON.parse(body || '{}') as { model?: string }).model === 'broken') {
          res.writeHead(401, { 'content-type': 'application/json', ...identity });
          res.end(JSON.stringify({ error: { message: `Incorrect API key provided. Keys in use: ${w}` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', server: `proxy${n}-${w}`, 'x-litellm-version': `1.${n}-${w}` });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({ model: `m-${w}`, system_fingerprint: `fp${n}-${w}`, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        let out = '';
        for (let i = 0; i < 40; i++) out += chunk({ content: `The keys are ${w}. ` });
        res.end(`${out}${chunk({}, 'stop')}data: [DONE]\n\n`);
      } else {
        res.writeHead(404, identity).end(`no ${path} for ${v}`);
      }
    });
  });
}

function configText(port: number, storage: string, betaKey: string, gammaKey: string | null): string {
  const base = `"http://127.0.0.1:${port}/v1"`;
  return `storage: { dir: ${JSON.stringify(storage)} }
targets:
  - { name: alpha, baseUrl: ${base}, model: m, apiKeyEnv: UNION_ALPHA_KEY, probes: [p] }
  - { name: beta, baseUrl: ${base}, model: m, apiKeyFile: ${JSON.stringify(betaKey)}, probes: [p] }
  - { name: beta-broken, baseUrl: ${base}, model: broken, apiKeyFile: ${JSON.stringify(betaKey)}, probes: [p] }
${gammaKey ? `  - { name: gamma, baseUrl: ${base}, model: m, apiKeyFile: ${JSON.stringify(gammaKey)}, probes: [p] }\n` : ''}probes:
  - { name: p, prompt: "Write about the sea.", maxTokens: 400 }
`;
}

const auth = { authorization: `Bearer ${TOKEN}` };

async function get(url: string): Promise<string> {
  const res = await fetch(url, { headers: auth, signal: AbortSignal.timeout(30_000) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}

async function post(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: '{}',
    signal: AbortSignal.timeout(60_000),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`POST ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
  return body;
}

/** A 56-character key of a fixed pseudo-random sequence (seed `i`), shaped as OpenAI's. */
function randomKey(i: number): string {
  const abc = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
  let x = 7919 * (i + 1);
  let k = 'sk-proj-';
  while (k.length < 56) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    k += abc[(x >>> 16) % abc.length];
  }
  return k;
}

/** Milliseconds of redactText over 1 MB of prose with `secrets` (the median of 7; a new list each time, as each request makes). */
function redactMs(text: string, secrets: readonly string[]): number {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const list = [...secrets];
    const t0 = performance.now();
    redactText(text, list);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[3] as number;
}

export async function secretsunionCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const echoed = [ALPHA_KEY, OTLP_SECRET, TOKEN];
  const upstream = sharedUpstream(echoed);
  const port = await new Promise<number>((resolve) =>
    upstream.listen(0, '127.0.0.1', () => resolve((upstream.address() as { port: number }).port)),
  );
  const storage = join(root, 'secretsunion-runs');
  const configPath = join(root, 'secretsunion.yaml');
  const betaKey = join(root, 'secretsunion-beta.key');
  const gammaKey = join(root, 'secretsunion-gamma.key');
  writeFileSync(betaKey, `${BETA_KEY}\n`);
  writeFileSync(gammaKey, `${GAMMA_KEY}\n`);
  writeFileSync(configPath, configText(port, storage, betaKey, null));
  const env = {
    UNION_ALPHA_KEY: ALPHA_KEY,
    COHERENCY_AUTH_TOKEN: TOKEN,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${OTLP_SECRET}`,
  };
  let d: ServedDaemon | null = null;
  try {
    const daemonPort = await freePort();
    d = await serveDaemon(configPath, daemonPort, { env: { LOG_LEVEL: 'debug', ...env }, args: ['--port', String(daemonPort)] });
    const daemon = d;
    const probe = async (target: string) => post(`${daemon.url}/probe?target=${target}&probe=p`);
    await runCases(
      [
        [
          "alpha's key, the OTLP credential and the token echoed to beta (server, system_fingerprint, model, /models, text): not in /probe or /runs/ID",
          async () => {
            const out: Array<[string, string]> = [];
            for (let round = 0; round < 2; round++)
              for (const target of ['alpha', 'beta']) {
                const body = await probe(target);
                const id = (JSON.parse(body) as { id: string }).id;
                out.push(
                  [`/probe ${target} #${round}`, body],
                  [`/runs/${id}`, await get(`${daemon.url}/runs/${id}`)],
                  [`/runs/${id} page`, await get(`${daemon.url}/runs/${id}?format=html`)],
                );
              }
            check(out[2]?.[1].includes('[redacted]') === true, 'no [redacted] in beta run (the case did not exercise the echo)');
            return clean(out);
          },
        ],
        [
          'the same in an error body of beta-broken: not in /probe',
          async () => clean([['/probe beta-broken', await probe('beta-broken')]]),
        ],
        [
          'the echo in /metrics (coherency_target_info of beta), /runs, the index',
          async () => {
            const metrics = await get(`${daemon.url}/metrics`);
            const info = metrics.split('\n').find((l) => l.startsWith('coherency_target_info{') && l.includes('target="beta"'));
            check(info !== undefined, 'no coherency_target_info of beta');
            return `${clean([
              ['/metrics', metrics],
              ['/runs', await get(`${daemon.url}/runs`)],
              ['/runs page', await get(`${daemon.url}/runs?format=html`)],
              ['/', await get(`${daemon.url}/`)],
            ])}; ${info}`;
          },
        ],
        [
          'a key a reload adds (gamma, a key file), echoed to beta from then on: not in /probe',
          async () => {
            writeFileSync(configPath, configText(port, storage, betaKey, gammaKey));
            await post(`${daemon.url}/-/reload`);
            echoed.push(GAMMA_KEY);
            return clean([['/probe beta after the reload', await probe('beta')]]);
          },
        ],
        [
          'the echo in stored run files and log lines',
          async () => {
            const files = filesUnder(storage);
            check(files.length > 0, 'no stored run (the case did not exercise storage)');
            return clean([...files, ['the log', daemon.lines.join('\n')]]);
          },
        ],
      ],
      results,
    );
  } finally {
    if (d) await stopChild(d.child, 5000);
  }

  await runCases(
    [
      [
        'CLI probe report, --json and --save with the shared upstream',
        async () => {
          const save = join(root, 'secretsunion-saved');
          const args = ['probe', '--config', configPath, '--target', 'beta', '--target', 'beta-broken'];
          const first = await runCli([...args, '--save', save], env);
          check(first.code === 1 || first.code === 3, `exit ${first.code}: ${first.out.slice(0, 300)}`);
          const json = await runCli([...args, '--json'], env);
          const saved = filesUnder(save);
          check(saved.length > 0, 'nothing saved');
          return clean([['probe', first.out], ['probe --json', json.out], ...saved]);
        },
      ],
      [
        'redaction of 1 MB with the 22 secrets of a 20-target configuration: within a small factor of 1 secret, linear',
        async () => {
          const keys = Array.from({ length: 22 }, (_, i) => randomKey(i));
          const line = `${'The harbour wakes before the town does. '.repeat(25)}${(keys[3] as string).slice(3, 28)} `;
          const mb = line.repeat(Math.ceil(1_000_000 / line.length)).slice(0, 1_000_000);
          const one = redactMs(mb, keys.slice(0, 1));
          const all = redactMs(mb, keys);
          const eight = redactMs(mb.repeat(8), keys);
          // the machine is shared: room for noise, but one search per block was ~20 times
          check(all < one * 6 + 5, `22 secrets ${all.toFixed(1)} ms, 1 secret ${one.toFixed(1)} ms`);
          check(eight < all * 32, `8 MB ${eight.toFixed(0)} ms, 1 MB ${all.toFixed(0)} ms`);
          return `1 MB: 1 secret ${one.toFixed(1)} ms, 22 secrets ${all.toFixed(1)} ms (${(all / one).toFixed(1)}x); 8 MB with 22: ${eight.toFixed(1)} ms`;
        },
      ],
    ],
    results,
  );
  await new Promise((r) => upstream.close(r));
}
