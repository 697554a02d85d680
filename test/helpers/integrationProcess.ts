/**
 * Shared plumbing of the integration tests (test/integration/): the repository root, a built
 * CLI, free loopback ports, child processes that are always stopped, polling, and a reader
 * of the Prometheus text format. Works from test/ (tsx) and from dist/test/ (npm test).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { repoRoot } from './repoRoot.js';

export { repoRoot as findRepoRoot };

export const ROOT = repoRoot();
export const CLI = join(ROOT, 'bin', 'coherency-exporter.js');

/** True when this module runs from TypeScript source (tsx), false from dist/. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * bin/coherency-exporter.js runs dist/src/cli.js. Under `npm test` tsc has just built it; run
 * from source (tsx) it may be missing, or older than src/, and the spawned CLI would then
 * test other code than the in-process simulator: build once in that case.
 */
export function ensureBuilt(): void {
  const cli = join(ROOT, 'dist', 'src', 'cli.js');
  const stale = FROM_SOURCE && existsSync(cli) && statSync(cli).mtimeMs < newestMtime(join(ROOT, 'src'));
  if (existsSync(cli) && !stale) return;
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  // tsc still emits on type errors elsewhere in the tree; only a missing CLI is fatal here.
  if (!existsSync(cli)) {
    throw new Error(`building dist/ failed (tsc exit ${String(result.status)}):\n${result.stdout}${result.stderr}`);
  }
  if (result.status !== 0) process.stderr.write(`# integration: tsc reported errors, testing what it emitted:\n${result.stdout}`);
}

/** A port nothing listened on a moment ago (bound on 127.0.0.1, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether 127.0.0.1:port can be bound right now. */
export async function canBind(port: number): Promise<boolean> {
  const server = createServer();
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (ok) await new Promise<void>((resolve) => server.close(() => resolve()));
  return ok;
}

export function makeTempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `coherency-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The executable `name` on PATH, or null. */
export function findExecutable(name: string): string | null {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not here
    }
  }
  return null;
}

function runningUnderCi(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/**
 * The path of a Prometheus tool (Debian's `prometheus` package), or a skip reason.
 * Under CI a missing tool is an error: CI installs the package, so a skip would hide a broken setup.
 */
export function requireTool(name: 'prometheus' | 'promtool'): { path: string; skip: null } | { path: null; skip: string } {
  const path = findExecutable(name);
  if (path) return { path, skip: null };
  if (runningUnderCi()) {
    throw new Error(`${name} is not on PATH, and CI is set: CI must install Debian's prometheus package (see .ci/run)`);
  }
  return { path: null, skip: `${name} is not installed (apt-get install prometheus); skipped outside CI` };
}

/**
 * Debian's chromium for the browser tests (driven by playwright-core, which downloads no
 * browser), or a skip reason. Under CI a missing browser is an error, as for promtool.
 */
export function requireChromium(
  candidates: (string | null)[] = ['/usr/bin/chromium', findExecutable('chromium'), findExecutable('chromium-browser')],
): { path: string; skip: null } | { path: null; skip: string } {
  const path = candidates.find((p): p is string => typeof p === 'string' && existsSync(p));
  if (path) return { path, skip: null };
  if (runningUnderCi()) {
    throw new Error("chromium is not installed, and CI is set: CI must install Debian's chromium package (see .ci/run)");
  }
  return { path: null, skip: 'chromium is not installed (apt-get install chromium); the browser tests are skipped outside CI' };
}

/**
 * A python3 that imports jsonschema, Debian's (/usr/bin/python3 with python3-jsonschema) first,
 * or a skip reason. Under CI a missing one is an error, as for promtool.
 */
export function requirePythonJsonschema(
  candidates: (string | null)[] = ['/usr/bin/python3', findExecutable('python3')],
): { path: string; skip: null } | { path: null; skip: string } {
  for (const path of candidates) {
    if (typeof path !== 'string' || !existsSync(path)) continue;
    if (spawnSync(path, ['-c', 'import jsonschema'], { stdio: 'ignore', timeout: 20_000 }).status === 0) return { path, skip: null };
  }
  if (runningUnderCi()) {
    throw new Error("python3 with jsonschema is not installed, and CI is set: CI must install Debian's python3-jsonschema (see .ci/run)");
  }
  return { path: null, skip: 'python3-jsonschema is not installed (apt-get install python3-jsonschema); skipped outside CI' };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns a value other than undefined/false, or throws after timeoutMs
 * with `what` and the last value or error seen.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
    }
    await sleep(intervalMs);
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A child process whose output is kept, and which is killed when the test process exits. */
export interface Child {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** The exit, or null while it still runs. */
  exit(): Exit | null;
  /** SIGTERM, then SIGKILL after graceMs; resolves once it exited. */
  stop(graceMs?: number): Promise<Exit>;
}

const live = new Set<ChildProcess>();
let scratch: string | null = null;
let children = 0;
process.once('exit', () => {
  // Last resort when a test body throws past its finally/after: no orphan servers.
  for (const child of live) child.kill('SIGKILL');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * The environment of a child, with $COHERENCY_STORAGE_DIR set to a folder of its own unless the
 * test sets it (an empty value: the default, data/runs under the child's working directory). A
 * serve whose config leaves storage.dir out would otherwise keep its runs in the checkout's
 * data/runs, shared by every test process running at once.
 */
export function childEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env['COHERENCY_STORAGE_DIR'] !== undefined) return env;
  scratch ??= mkdtempSync(join(tmpdir(), 'coherency-children-'));
  return { ...env, COHERENCY_STORAGE_DIR: join(scratch, `runs-${++children}`) };
}

export function startChild(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Child {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: childEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let out = '';
  let err = '';
  let exit: Exit | null = null;
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (e) => {
      err += `\nspawn error: ${e.message}`;
      exit = { code: null, signal: null };
      live.delete(child);
      resolve(exit);
    });
    child.once('close', (code, signal) => {
      exit = { code, signal };
      live.delete(child);
      resolve(exit);
    });
  });
  return {
    process: child,
    stdout: () => out,
    stderr: () => err,
    exited,
    exit: () => exit,
    async stop(graceMs = 10_000) {
      if (exit) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** `coherency-exporter serve ARGS` as a child process. LOG_LEVEL defaults to warn to keep output small. */
export function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Child {
  return startChild(process.execPath, [CLI, 'serve', ...args], { env: { LOG_LEVEL: 'warn', ...process.env, ...env } });
}

/** Waits until GET baseUrl/-/ready answers 200; fails early, with its output, when the process exits. */
export async function waitReady(child: Child, baseUrl: string, timeoutMs = 15_000): Promise<void> {
  await waitFor(
    `${baseUrl}/-/ready`,
    async () => {
      const exit = child.exit();
      if (exit) {
        throw new Error(
          `serve exited (code ${String(exit.code)}, signal ${String(exit.signal)}) before ready:\n${child.stderr()}\n${child.stdout()}`,
        );
      }
      const res = await fetch(`${baseUrl}/-/ready`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return res.status === 200;
    },
    { timeoutMs, intervalMs: 100 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}\nstderr:\n${child.stderr()}\nstdout:\n${child.stdout().slice(-4000)}`);
  });
}

/** Runs a command to completion, with optional stdin, bounded in time. */
export function runCommand(
  command: string,
  args: string[],
  { input, timeoutMs = 30_000, env, cwd = ROOT }: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      live.delete(child);
      reject(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {}); // a tool that exits without reading stdin
    child.stdin.end(input ?? '');
  });
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped; label values unescaped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/.exec(line);
    if (!m) throw new Error(`unparsable exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels`, or undefined when none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name}${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

/** What starts a run on /probe without the token: a POST with a JSON body (names in the query string or the body). */
export const RUN_PROBE = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } as const;

export async function fetchText(url: string, timeoutMs = 10_000, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, body: await res.text() };
}
