import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { startSimulator } from '../../src/simulator/index.js';
import { freePort, stopChild } from '../childProcess.js';
import { CLI, check, closeServer, runCases, serveDaemon, startServer, type TestServer } from './shared.js';

/**
 * Issue 39: what a target gets besides the probes' chat requests. A recording proxy in front of
 * the simulator notes every request (method, path, headers) of a daemon (child process) and of
 * `probe`: with `fingerprintReads: false` or `--no-fingerprint-reads` only the chat requests
 * arrive; with the reads on, the info endpoints at the origin's root get neither the key nor the
 * target's headers, and two runs within 5 minutes read once. About 5 s.
 */

const KEY = 'sk-fp39-bench-key-0123456789';
const TEAM = 'x-team-token';

interface Seen {
  line: string;
  headers: IncomingHttpHeaders;
}

/** A proxy to `upstreamPort` that keeps what it forwarded. */
async function recordingProxy(upstreamPort: number): Promise<TestServer & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = await startServer((req, res) => {
    seen.push({ line: `${req.method} ${req.url}`, headers: req.headers });
    const out = request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return Object.assign(server, { seen });
}

const CHAT = 'POST /v1/chat/completions';
const others = (seen: readonly Seen[]) => seen.filter((s) => s.line !== CHAT).map((s) => s.line);

async function runNow(url: string, target: string): Promise<string> {
  const res = await fetch(`${url}/probe?target=${target}&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(30_000),
  });
  check(res.status === 200, `POST /probe ${target}: HTTP ${res.status}`);
  return ((await res.json()) as { verdict: string }).verdict;
}

/** `probe --base-url URL ... more` as a child process, bounded at 30 s: its exit code. */
function probeOnce(baseUrl: string, more: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const args = ['probe', '--base-url', baseUrl, '--model', 'healthy', '--max-tokens', '80', '--min-tokens', '0', '--quiet', ...more];
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore', env: { ...process.env, OPENAI_API_KEY: '' } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export async function fp39Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  // a release far off: the simulator answers GET /version, as vLLM does
  const sim = await startSimulator({ port: 0, release: { after: 1_000_000 } });
  const upstream = new URL(sim.url);
  const on = await recordingProxy(Number(upstream.port));
  const off = await recordingProxy(Number(upstream.port));
  const cli = await recordingProxy(Number(upstream.port));
  const port = await freePort();
  const configPath = join(root, 'fp39.yaml');
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port} }
targets:
  - { name: on, baseUrl: "http://127.0.0.1:${on.port}/v1", model: healthy, apiKeyEnv: FP39_KEY, headers: { X-Team: ${TEAM} } }
  - { name: off, baseUrl: "http://127.0.0.1:${off.port}/v1", model: healthy, apiKeyEnv: FP39_KEY, fingerprintReads: false }
probes:
  - { name: p, prompt: "Write about caches.", maxTokens: 80, minTokens: 0, samples: 2 }
`,
  );
  const daemon = await serveDaemon(configPath, port, { env: { FP39_KEY: KEY } });
  try {
    for (let i = 0; i < 2; i++) for (const t of ['on', 'off']) check((await runNow(daemon.url, t)) === 'ok', `run ${i + 1} of ${t}`);
    await runCases(
      [
        [
          'fingerprintReads: false: the target gets its chat requests and nothing else',
          async () => {
            check(off.seen.length === 4 && others(off.seen).length === 0, `got ${off.seen.map((s) => s.line).join(', ')}`);
            return `2 runs of 2 samples: ${off.seen.length} × ${CHAT}, nothing else`;
          },
        ],
        [
          'fingerprint reads: the key and headers go to {baseUrl}/models only, the root endpoints get neither; one read in 5 minutes',
          async () => {
            const reads = on.seen.filter((s) => s.line !== CHAT);
            const models = reads.filter((s) => s.line === 'GET /v1/models');
            const rooted = reads.filter((s) => s.line !== 'GET /v1/models');
            check(models.length === 1, `${models.length} reads of /v1/models for 2 runs`);
            check(
              models[0]?.headers.authorization === `Bearer ${KEY}` && models[0]?.headers['x-team'] === TEAM,
              '/v1/models without the key',
            );
            const leaked = rooted.filter((s) => s.headers.authorization !== undefined || s.headers['x-team'] !== undefined);
            check(leaked.length === 0, `the key or X-Team sent to ${leaked.map((s) => s.line).join(', ')}`);
            check(rooted.length === 5, `${rooted.length} info reads: ${rooted.map((s) => s.line).join(', ')}`);
            return `${reads.length} reads for 2 runs: ${reads.map((s) => s.line).join(', ')}; key and header on /v1/models only`;
          },
        ],
        [
          'probe --save-baseline --no-fingerprint-reads: the probe alone',
          async () => {
            const code = await probeOnce(`http://127.0.0.1:${cli.port}/v1`, [
              '--save-baseline',
              join(root, 'fp39-baseline.json'),
              '--no-fingerprint-reads',
            ]);
            check(code === 0, `exit ${code}`);
            check(others(cli.seen).length === 0 && cli.seen.length === 1, `got ${cli.seen.map((s) => s.line).join(', ')}`);
            return `exit 0, ${cli.seen.length} × ${CHAT}, nothing else`;
          },
        ],
      ],
      results,
    );
  } finally {
    await stopChild(daemon.child);
    for (const p of [on, off, cli]) await closeServer(p);
    await sim.close();
  }
}
