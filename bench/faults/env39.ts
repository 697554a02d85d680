import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../childProcess.js';
import { type Case, CLI, check, closeServer, runCases, serveDaemon, startServer } from './shared.js';

/**
 * Issue 39 items 8 and 12 from outside: `serve` with OPENAI_BASE_URL and no model reads the
 * endpoint's /models once at start; a /models that is endless, stalls, lists ten thousand
 * models, names them with terminal controls or redirects must end start-up in bounded time with
 * one plain message and exit 2. The proxy variables: a proxy that refuses (407) costs a sample,
 * not the daemon, and its credentials appear nowhere; a proxy URL that is not one is one line
 * without the password. About 10 s (the stalled /models waits out its 5 s idle bound).
 */

interface Ran {
  status: number | null;
  err: string;
  ms: number;
}

/** `serve` with only `env` (and PATH; runs kept under `root`, never the checkout's data/runs), bounded at 30 s. */
function serveWith(root: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--log-format', 'json'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', COHERENCY_STORAGE_DIR: join(root, 'env39-runs'), ...env },
    });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      if (err.length < 1_000_000) err += c;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, err, ms: performance.now() - t0 });
    });
  });
}

/** A server whose GET /v1/models is `models`; anything else 404. */
async function withModels<T>(models: (res: import('node:http').ServerResponse) => void, run: (baseUrl: string) => Promise<T>): Promise<T> {
  const s = await startServer((req, res) => {
    req.resume();
    if (req.url === '/v1/models') models(res);
    else res.writeHead(404).end();
  });
  try {
    return await run(`http://127.0.0.1:${s.port}/v1`);
  } finally {
    await closeServer(s);
  }
}

const refused = (r: Ran, what: RegExp, name: string) => {
  check(r.status === 2, `${name}: exited ${r.status}: ${r.err.slice(0, 200)}`);
  check(what.test(r.err), `${name}: said ${r.err.trim().slice(0, 300)}`);
  check(!/\n\s+at /.test(r.err), `${name}: a stack trace`);
};

export async function env39Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const cases: Case[] = [
    [
      'env: /models streams without end',
      async () =>
        withModels(
          (res) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            const chunk = `{"data":[${'{"id":"m"},'.repeat(6000)}`;
            const pump = () => {
              while (res.write(chunk)) if (res.destroyed) return;
              res.once('drain', pump);
            };
            res.on('error', () => {});
            pump();
          },
          async (baseUrl) => {
            const r = await serveWith(root, { OPENAI_BASE_URL: baseUrl });
            refused(r, /could not be read from .*too_large/, 'endless');
            return `exit 2 in ${Math.round(r.ms)} ms: too_large at 1 MiB`;
          },
        ),
    ],
    [
      'env: /models sends headers, then nothing',
      async () =>
        withModels(
          (res) => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write('{"data":');
          },
          async (baseUrl) => {
            const r = await serveWith(root, { OPENAI_BASE_URL: baseUrl });
            refused(r, /could not be read from .*timeout/, 'stalled');
            check(r.ms < 15_000, `took ${Math.round(r.ms)} ms`);
            return `exit 2 in ${Math.round(r.ms)} ms (${/timeout_\w+/.exec(r.err)?.[0] ?? 'timeout'})`;
          },
        ),
    ],
    [
      'env: /models lists 10000 models, some named with terminal controls',
      async () =>
        withModels(
          (res) => {
            const data = Array.from({ length: 10_000 }, (_, i) => ({ id: i === 1 ? 'evil\u001b]8;;http://x\u0007\u202e' : `model-${i}` }));
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ data }));
          },
          async (baseUrl) => {
            const r = await serveWith(root, { OPENAI_BASE_URL: baseUrl });
            refused(r, /lists 10000 models:\n/, 'many');
            check(/… and 9970 more/.test(r.err), 'not cut at 30');
            check(!/[\u0007\u001b\u202e]/.test(r.err), 'a control character reached the terminal');
            return `exit 2, 30 listed and "… and 9970 more", controls escaped, ${r.err.length} bytes of stderr`;
          },
        ),
    ],
    [
      'env: /models redirects elsewhere',
      async () =>
        withModels(
          (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
          async (baseUrl) => {
            const r = await serveWith(root, { OPENAI_BASE_URL: baseUrl });
            refused(r, /answered HTTP 302/, 'redirect');
            return 'exit 2, HTTP 302 not followed';
          },
        ),
    ],
    [
      'proxy: HTTPS_PROXY that is not a URL, with a password in it',
      async () => {
        const r = await serveWith(root, {
          OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
          OPENAI_MODEL: 'm',
          HTTPS_PROXY: 'http://ops:pw-canary-39@[::1',
        });
        refused(r, /^error: HTTPS_PROXY: .* is not a URL/, 'bad proxy');
        check(!r.err.includes('pw-canary-39'), 'the password was printed');
        return 'exit 2, one line, the password shown as [redacted]';
      },
    ],
    [
      'proxy: a proxy that answers 407 to everything',
      async () => {
        const proxy = await startServer((req, res) => {
          req.resume();
          res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' }).end();
        });
        proxy.server.on('connect', (_req, socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
        const target = await startServer((req, res) => {
          req.resume();
          res.writeHead(500).end();
        });
        const port = await freePort();
        const configPath = join(root, 'env39-proxy.yaml');
        writeFileSync(
          configPath,
          `server: { host: 127.0.0.1, port: ${port} }
targets: [{ name: t, baseUrl: "http://127.0.0.1:${target.port}/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 10, minTokens: 0, schedule: "0 0 1 1 *", runOnStart: false }]
`,
        );
        const d = await serveDaemon(configPath, port, { env: { HTTP_PROXY: `http://ops:pw-canary-39@127.0.0.1:${proxy.port}` } });
        try {
          const res = await fetch(`${d.url}/probe?target=t&probe=p`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          const body = (await res.json()) as { samples: { verdict: string; error?: { type: string; message: string } | null }[] };
          const sample = body.samples[0];
          check(sample?.verdict === 'error', `verdict ${sample?.verdict}`);
          const healthy = await fetch(`${d.url}/-/healthy`);
          check(healthy.status === 200, `/-/healthy ${healthy.status}`);
          const said = JSON.stringify(body) + d.lines.join('\n') + (await (await fetch(`${d.url}/metrics`)).text());
          check(!said.includes('pw-canary-39'), 'the proxy password leaked');
          check(
            d.lines.some((l) => l.includes('go through a proxy') && l.includes('[redacted]@127.0.0.1')),
            'no start-up line naming the proxy',
          );
          return `the sample errors (${sample?.error?.type}: ${sample?.error?.message.slice(0, 100)}); the daemon stays healthy; the password nowhere`;
        } finally {
          d.child.kill('SIGTERM');
          await new Promise((r) => d.child.once('close', r));
          await closeServer(proxy);
          await closeServer(target);
        }
      },
    ],
  ];
  await runCases(cases, results);
}
