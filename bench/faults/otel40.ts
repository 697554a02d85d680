import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { exited, freePort, stopChild, waitOk } from '../childProcess.js';
import { CLI, check, type Case, runCases } from './shared.js';

/**
 * Issue 40 item 1: the OpenTelemetry export against a collector that is down (a closed port),
 * a black hole (accepts, never answers) and one that answers 500. In each, a daemon child process
 * probes its built-in simulator: the run completes at its usual speed, the dropped counter on
 * /metrics rises, /-/healthy answers at once, and SIGTERM stops the daemon within a few export
 * timeouts. Every step is bounded.
 */

type Mode = 'blackhole' | 'fail';

/** A collector of this process on 127.0.0.1 that never answers, or answers 500. */
async function collector(mode: Mode): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      if (mode === 'blackhole') held.push(res);
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":13}');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `serve` in a directory of its own: the simulator on simPort, one target on it, otlp at `endpoint`. */
function serve(root: string, name: string, port: number, simPort: number, endpoint: string): ChildProcess {
  const dir = join(root, `otel40-${name}`);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `server: { host: 127.0.0.1, port: ${port} }
storage: { dir: null }
simulator: { enabled: true, port: ${simPort}, tokensPerSecond: 2000 }
otlp: { endpoint: "${endpoint}", metrics: true, timeoutSeconds: 1, exportIntervalSeconds: 0.2, maxQueueSize: 4 }
targets: [{ name: t, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy }]
probes: [{ name: p, prompt: "Write a long technical article.", maxTokens: 400, minTokens: 0, samples: 3, schedule: "0 0 1 1 *", runOnStart: false }]
`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const k of Object.keys(env)) if (k.startsWith('OTEL_')) delete env[k];
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config], { cwd: dir, env, stdio: ['ignore', 'ignore', 'ignore'] });
  return child;
}

/** POST /probe: the run's verdict and how long the answer took. */
async function runProbe(port: number): Promise<{ verdict: string; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/probe?target=t&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(30_000),
  });
  const run = (await res.json()) as { verdict: string };
  return { verdict: run.verdict, ms: performance.now() - t0 };
}

/** The sum of coherency_otlp_dropped_records_total's series on /metrics. */
async function dropped(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('coherency_otlp_dropped_records_total{'))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
}

/** A closed port: listened on, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The case: two runs, the drops, /-/healthy's time, SIGTERM's time; the row's detail. */
async function probeAgainst(root: string, name: string, endpoint: string): Promise<string> {
  const port = await freePort();
  const simPort = await freePort();
  const child = serve(root, name, port, simPort, endpoint);
  try {
    await waitOk(`http://127.0.0.1:${port}/-/ready`, child, 20_000);
    const runs = [await runProbe(port), await runProbe(port)];
    check(
      runs.every((r) => r.verdict === 'ok'),
      `verdicts ${runs.map((r) => r.verdict).join(', ')}`,
    );
    const deadline = Date.now() + 10_000;
    let drops = await dropped(port);
    while (drops === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      drops = await dropped(port);
    }
    check(drops > 0, 'coherency_otlp_dropped_records_total stayed at 0');
    const h0 = performance.now();
    const healthy = await fetch(`http://127.0.0.1:${port}/-/healthy`, { signal: AbortSignal.timeout(5000) });
    const healthyMs = performance.now() - h0;
    check(healthy.status === 200 && healthyMs < 500, `/-/healthy ${healthy.status} in ${healthyMs.toFixed(0)} ms`);
    const s0 = performance.now();
    child.kill('SIGTERM');
    const code = await exited(child, 8000);
    const stopMs = performance.now() - s0;
    check(code !== null, 'still running 8 s after SIGTERM');
    return `runs ok in ${runs.map((r) => r.ms.toFixed(0)).join(', ')} ms; ${drops} records dropped; /-/healthy ${healthyMs.toFixed(0)} ms; SIGTERM exit ${code} in ${stopMs.toFixed(0)} ms`;
  } finally {
    await stopChild(child);
  }
}

export async function otel40Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const cases: Case[] = [
    [
      'otel40: otlp collector down (closed port): probes complete, dropped counter rises, /-/healthy fast, SIGTERM prompt',
      async () => probeAgainst(root, 'down', `http://127.0.0.1:${await closedPort()}`),
    ],
    [
      'otel40: otlp collector a black hole (accepts, never answers): the same, and shutdown bounded by timeoutSeconds',
      async () => {
        const c = await collector('blackhole');
        try {
          const detail = await probeAgainst(root, 'blackhole', c.url);
          check(c.requests() > 0, 'the collector got no request');
          return `${detail}; ${c.requests()} exports held open`;
        } finally {
          await c.close();
        }
      },
    ],
    [
      'otel40: otlp collector answering 500: the same',
      async () => {
        const c = await collector('fail');
        try {
          const detail = await probeAgainst(root, 'fail500', c.url);
          check(c.requests() > 0, 'the collector got no request');
          return `${detail}; ${c.requests()} exports refused`;
        } finally {
          await c.close();
        }
      },
    ],
  ];
  await runCases(cases, results);
}
