import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { freePort, stopChild } from '../childProcess.js';
import { type Answer, call, check, runCases, serveDaemon } from './shared.js';

/**
 * Issue 34, parts 2 and 4 and the limiter, as fault cases (`npm run bench -- faults`): a page of
 * another site against a daemon reached by name over plain HTTP (no Sec-Fetch-*, Origin or
 * Referer: what Chromium sends there), a flood of 4xx answers against the log and the memory,
 * and rotating client addresses against the login limiter. Two daemons as child processes with
 * the simulator in-process, everything on loopback and bounded in time; about 20 s.
 */

const TOKEN = 'browser-bench-token-0123456789';

interface Daemon {
  url: string;
  port: number;
  child: ChildProcess;
  /** Lines the daemon wrote to stdout and stderr. */
  lines: string[];
}

async function startDaemon(root: string, name: string, server: string): Promise<Daemon> {
  const port = await freePort();
  const simPort = await freePort();
  const configPath = join(root, `${name}.yaml`);
  writeFileSync(
    configPath,
    `server: { host: 127.0.0.1, port: ${port}, ${server} }
simulator: { enabled: true, host: 127.0.0.1, port: ${simPort}, tokensPerSecond: 0 }
targets:
  - { name: healthy, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy, probes: [p] }
probes:
  - { name: p, prompt: "Write a short article about harbours.", maxTokens: 200 }
`,
  );
  return { ...(await serveDaemon(configPath, port)), port };
}

/** The daemon's resident memory in MB (Linux /proc). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Sends `next(i)` from `clients` concurrent loops for `ms`; returns the statuses counted. */
async function flood(clients: number, ms: number, next: (i: number) => Promise<Answer>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const end = Date.now() + ms;
  let i = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const res = await next(i++).catch(() => ({ status: 0, body: '' }));
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

const show = (m: Map<number, number>) =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n.toLocaleString('en-US')} x ${s}`)
    .join(', ');

export async function browserCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  // The documented container setup: no token, reached by its name.
  const open = await startDaemon(root, 'browser-open', 'allowedHosts: [daemon.test]');
  const runs = async () => (JSON.parse((await call(`${open.url}/runs`)).body) as { runs: unknown[] }).runs.length;
  try {
    await runCases(
      [
        [
          'browser: a page of another site, daemon reached by name over HTTP (no Sec-Fetch, Origin or Referer)',
          async () => {
            const url = `${open.url}/probe?target=healthy&probe=p`;
            const host = `daemon.test:${open.port}`;
            const tries: [string, { method?: string; headers?: Record<string, string>; body?: string }][] = [
              ['<img>', { headers: { host, accept: 'image/avif,image/webp,image/*,*/*;q=0.8' } }],
              ['no-cors fetch', { headers: { host, accept: '*/*' } }],
              ['no-cors POST', { method: 'POST', headers: { host } }],
              [
                'form',
                { method: 'POST', headers: { host, 'content-type': 'application/x-www-form-urlencoded' }, body: 'target=healthy&probe=p' },
              ],
              [
                'text/plain form',
                { method: 'POST', headers: { host, 'content-type': 'text/plain' }, body: '{"target":"healthy","probe":"p"}' },
              ],
              [
                'multipart form',
                { method: 'POST', headers: { host, 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--\r\n' },
              ],
            ];
            const answers: string[] = [];
            for (const [what, options] of tries) answers.push(`${what} ${(await call(url, options)).status}`);
            check((await runs()) === 0, `a run started: ${answers.join(', ')}`);
            const json = await call(url, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{}' });
            check(json.status === 200 && (await runs()) === 1, `the JSON POST of a client did not run: ${json.status}`);
            return `${answers.join(', ')}; no run (a client's JSON POST runs)`;
          },
        ],
        [
          'log: 16 clients sending 404/403/405/421 (some with 15 KB URLs) for 5 s',
          async () => {
            const agent = new Agent({ keepAlive: true, maxSockets: 16 });
            const pad = 'x'.repeat(15_000);
            const host = `daemon.test:${open.port}`;
            const kinds: [string, Record<string, string>][] = [
              [`/nothing-here?${pad}`, { host }],
              [
                '/probe?target=healthy&probe=p',
                { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
              ],
              ['/probe?target=healthy&probe=p', { host }],
              [`/runs?${pad}`, { host: 'rebind.attacker.example' }],
              ['/nothing', { host }],
            ];
            // warm up, then the idle figure
            for (let i = 0; i < 50; i++) await call(`${open.url}/-/healthy`, { agent });
            await new Promise((r) => setTimeout(r, 500));
            const idle = rssMb(open.child.pid!);
            let peak = idle;
            const sampler = setInterval(() => (peak = Math.max(peak, rssMb(open.child.pid!))), 100);
            const before = open.lines.length;
            const statuses = await flood(16, 5000, (i) => {
              const [path, headers] = kinds[i % kinds.length]!;
              return call(`${open.url}${path}`, { headers, agent });
            });
            clearInterval(sampler);
            agent.destroy();
            await new Promise((r) => setTimeout(r, 300));
            const logged = open.lines.slice(before).map((l) => {
              const line = JSON.parse(l) as { statusCode?: number; heldBack?: number; msg?: string };
              return line.statusCode ? `${line.statusCode}` : (line.msg ?? '').slice(0, 40);
            });
            const lines = open.lines.length - before;
            const bytes = open.lines.slice(before).reduce((n, l) => n + l.length + 1, 0);
            const total = [...statuses.values()].reduce((a, b) => a + b, 0);
            check(lines <= 20, `${lines} log lines (${bytes} bytes) for ${total} requests`);
            check(peak - idle <= 50, `RSS ${idle.toFixed(0)} MB idle, ${peak.toFixed(0)} MB at the peak`);
            check((await runs()) === 1, 'a run started');
            return `${show(statuses)} in 5 s: ${lines} log lines (${logged.join(', ')}; ${bytes.toLocaleString('en-US')} bytes); RSS ${idle.toFixed(0)} -> ${peak.toFixed(0)} MB`;
          },
        ],
      ],
      results,
    );
  } finally {
    await stopChild(open.child);
  }

  // Behind a trusted proxy on 127.0.0.1 (X-Forwarded-For names the client), with a token.
  const guarded = await startDaemon(root, 'browser-guarded', `authToken: ${TOKEN}, trustProxy: [127.0.0.1]`);
  try {
    await runCases(
      [
        [
          'login: rotating X-Forwarded-For and source addresses (127.0.0.x) for 3 s; Prometheus shares an address',
          async () => {
            let prometheus = 0;
            let prometheusOk = 0;
            let stop = false;
            // Prometheus scrapes with the right token from 127.0.0.2, which the guesser also uses.
            const scraper = (async () => {
              while (!stop) {
                const res = await call(`${guarded.url}/runs?limit=1`, {
                  headers: { authorization: `Bearer ${TOKEN}` },
                  localAddress: '127.0.0.2',
                });
                prometheus++;
                if (res.status === 200) prometheusOk++;
                await new Promise((r) => setTimeout(r, 50));
              }
            })();
            const before = guarded.lines.length;
            const t0 = performance.now();
            const statuses = await flood(16, 3000, (i) =>
              i % 2 === 0
                ? call(`${guarded.url}/runs`, {
                    headers: { authorization: `Bearer wrong-${i}-0123456789`, 'x-forwarded-for': `198.51.${(i >> 8) & 255}.${i & 255}` },
                  })
                : call(`${guarded.url}/runs`, {
                    headers: { authorization: `Bearer wrong-${i}-0123456789` },
                    localAddress: `127.0.0.${2 + (i % 250)}`,
                  }),
            );
            const seconds = (performance.now() - t0) / 1000;
            stop = true;
            await scraper;
            const right = await call(`${guarded.url}/runs?limit=1`, {
              headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.0.0' },
            });
            const answered401 = statuses.get(401) ?? 0;
            // the shared bucket: 100 at once, then 100 a minute
            const cap = 100 + Math.ceil((100 * seconds) / 60);
            const lines = guarded.lines.slice(before).filter((l) => l.includes('wrong credentials')).length;
            const total = [...statuses.values()].reduce((a, b) => a + b, 0);
            check(answered401 <= cap, `${answered401} wrong tokens answered 401 (cap ${cap}): ${show(statuses)}`);
            check(prometheusOk === prometheus, `Prometheus got ${prometheus - prometheusOk} of ${prometheus} scrapes refused`);
            check(right.status === 200, `the right token from a rotated address: HTTP ${right.status}`);
            check(lines <= 2, `${lines} log lines`);
            return (
              `${show(statuses)} (${Math.round(total / seconds).toLocaleString('en-US')} requests/s, 401s within the cap of ${cap}); ` +
              `Prometheus ${prometheusOk}/${prometheus} scrapes 200; ${lines} log line`
            );
          },
        ],
      ],
      results,
    );
  } finally {
    await stopChild(guarded.child);
  }
}
