/**
 * What every table of fault cases (bench/faults.ts and bench/faults/*.ts) shares: the command
 * line it starts daemons with, a case that does not hold, a run of the cases into the results,
 * an HTTP server of this process on 127.0.0.1, and a daemon as a child process with its log
 * lines kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { type Agent, createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretPieces } from '../../test/helpers/secretLeaks.js';
import { waitOk } from '../childProcess.js';

export const CLI = fileURLToPath(new URL('../../../bin/coherency-exporter.js', import.meta.url));

/** A case that did not hold: its message is the detail of the row. */
export class NotHeld extends Error {}

export function check(ok: boolean, what: string): void {
  if (!ok) throw new NotHeld(what);
}

export type Case = [name: string, run: () => Promise<string>];

/** Runs each case in turn into `results`: held with its detail, NOT held with why, or crashed. */
export async function runCases(cases: readonly Case[], results: Array<[string, boolean, string]>): Promise<void> {
  for (const [name, run] of cases) {
    try {
      results.push([name, true, await run()]);
    } catch (err) {
      results.push([name, false, err instanceof NotHeld ? err.message : `crashed: ${(err as Error).message}`]);
    }
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One HTTP request with any headers (Host included), on a fresh connection unless an agent is
 * given, bounded (30 s by default); `localAddress` picks the source address.
 */
export function call(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    localAddress?: string;
    agent?: Agent;
  } = {},
): Promise<Answer> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: options.agent ?? false,
        timeout: timeoutMs,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface TestServer {
  server: Server;
  port: number;
  sockets: Set<Socket>;
}

/** An HTTP server on 127.0.0.1 at a free port, its sockets tracked so that closing it ends them. */
export function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, sockets });
    }),
  );
}

export async function closeServer(s: { server: Server; sockets: Set<Socket> }): Promise<void> {
  for (const socket of s.sockets) socket.destroy();
  await new Promise<void>((r) => s.server.close(() => r()));
}

export interface ServedDaemon {
  url: string;
  child: ChildProcess;
  /** The daemon's output, a line each (blank ones aside). */
  lines: string[];
}

/** `serve --config FILE` (more `args` after it) as a child process, once /-/ready answers on `port`. */
export async function serveDaemon(
  configPath: string,
  port: number,
  options: { env?: Record<string, string>; args?: readonly string[] } = {},
): Promise<ServedDaemon> {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath, ...(options.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // runs kept on disk by default: each daemon in the folder of its config, never the checkout's data/runs
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      COHERENCY_STORAGE_DIR: mkdtempSync(join(dirname(configPath), 'runs-')),
      ...options.env,
    },
  });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => {
      const parts = (rest + c).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.trim() !== ''));
    });
  }
  const url = `http://127.0.0.1:${port}`;
  await waitOk(`${url}/-/ready`, child, 20_000);
  return { url, child, lines };
}

/** What `analyze FILE --json` said, from outside. */
export interface AnalyzedFile {
  code: number | null;
  verdict: string;
  reason: string;
  /** kind and rule of every finding. */
  findings: string[];
  ms: number;
}

/** `analyze FILE --json` as a child process, bounded at 30 s: its exit code, verdict, first reason, findings and time. */
export function analyzeFile(file: string): Promise<AnalyzedFile> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'analyze', file, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        const j = JSON.parse(out) as { verdict: string; reasons: string[]; findings: Array<{ kind: string; rule?: string }> };
        const findings = j.findings.map((f) => `${f.kind} ${f.rule ?? ''}`.trim());
        resolve({ code, verdict: j.verdict, reason: j.reasons[0] ?? '', findings, ms: performance.now() - t0 });
      } catch {
        reject(new Error(`analyze ${file} printed no JSON (exit ${code})`));
      }
    });
  });
}

/**
 * Texts analysed from outside: file(name) writes the text to ROOT/PREFIX-NAME.txt; healthy(name)
 * holds when `analyze` exits 0 with ok, and says the text's length.
 */
export function analyzedTexts<K extends string>(root: string, prefix: string, texts: Readonly<Record<K, string>>) {
  const file = (name: K): string => {
    const path = join(root, `${prefix}-${name}.txt`);
    writeFileSync(path, texts[name]);
    return path;
  };
  const healthy = async (name: K): Promise<string> => {
    const a = await analyzeFile(file(name));
    check(a.code === 0 && a.verdict === 'ok', `exit ${a.code}, ${a.verdict}: ${a.reason}`);
    return `exit 0, ok (${texts[name].length} chars)`;
  };
  return { file, healthy };
}

/** Holds when no output holds an 8-character piece of a secret (any case); names each that does, and what it gives out. */
export function noSecretIn(where: Array<[string, string]>, secrets: readonly string[], what: string): string {
  const dirty = where.map(([w, t]) => [w, secretPieces(secrets, t)[0]] as const).filter(([, p]) => p !== undefined);
  check(dirty.length === 0, `${what} is in ${dirty.map(([w, p]) => `${w} ("${p}")`).join(', ')}`);
  return `${where.length} outputs, none holds a piece`;
}

/** The command line run with `args` and `env` over this process's (killed after 60 s): its exit code and its output, both streams. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The case that closes a table: the daemon at `url` still answers /-/healthy after every case before it. */
export function stillUpCase(table: string, url: () => string): Case {
  return [
    `${table}: the daemon is still up after every case`,
    async () => {
      const res = await fetch(`${url()}/-/healthy`, { signal: AbortSignal.timeout(5000) });
      check(res.status === 200, `/-/healthy: HTTP ${res.status}`);
      return 'HTTP 200';
    },
  ];
}
