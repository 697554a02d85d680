import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { exited, freePort, stopChild, waitOk } from '../childProcess.js';
import { CLI, check, type Case, runCases } from './shared.js';

/**
 * Issue 39: runs kept on disk by default, and the demo's simulator port. What a working
 * directory, an environment variable or another process on the simulator's port can do to
 * start-up: a default directory that cannot be made is a warning (runs in memory), a directory
 * the operator named that cannot hold files stops start-up, null writes nothing, and a taken
 * simulator port moves the simulator with its targets. Every daemon runs as a child process in
 * a directory of its own, every step bounded.
 */

const PROBES = `probes: [{ name: p, prompt: "Write a long technical article.", maxTokens: 300, schedule: "0 0 1 1 *", runOnStart: false }]\n`;

/** `serve` in `cwd`, with $COHERENCY_STORAGE_DIR as given (undefined: unset). */
function serve(cwd: string, configPath: string, storageEnv?: string): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  delete env['COHERENCY_STORAGE_DIR'];
  if (storageEnv !== undefined) env['COHERENCY_STORAGE_DIR'] = storageEnv;
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding('utf8').on('data', (c: string) => (output += c));
  return { child, output: () => output };
}

/** POST /probe for target t, probe p: the run's verdict. */
async function runProbe(port: number): Promise<{ verdict: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/probe?target=t&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(30_000),
  });
  return (await res.json()) as { verdict: string };
}

/** A fresh working directory under root with a config of one target at `baseUrl` serving `model`. */
function workDir(
  root: string,
  name: string,
  port: number,
  extra = '',
  baseUrl = 'http://127.0.0.1:9/v1',
  model = 'healthy',
): { dir: string; config: string } {
  const dir = join(root, `store39-${name}`);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `server: { host: 127.0.0.1, port: ${port} }\n${extra}targets: [{ name: t, baseUrl: "${baseUrl}", model: ${model} }]\n${PROBES}`,
  );
  return { dir, config };
}

export async function store39Cases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const cases: Case[] = [
    [
      'store39: the default storage dir cannot be made (a file named data): serve starts, warns, keeps runs in memory',
      async () => {
        const port = await freePort();
        const { dir, config } = workDir(root, 'default-blocked', port);
        writeFileSync(join(dir, 'data'), 'a file where the data directory would go');
        const d = serve(dir, config);
        try {
          await waitOk(`http://127.0.0.1:${port}/-/ready`, d.child, 15_000);
          const warned = d.output().includes('the default run storage \\"data/runs\\" cannot be created');
          check(warned, `no warning naming the default dir: ${d.output().slice(0, 600)}`);
          return 'ready; one warning names data/runs and says runs are kept in memory';
        } finally {
          await stopChild(d.child);
        }
      },
    ],
    [
      'store39: $COHERENCY_STORAGE_DIR under a file: serve exits 2 naming the variable',
      async () => {
        const port = await freePort();
        const { dir, config } = workDir(root, 'env-blocked', port);
        writeFileSync(join(dir, 'blocker'), 'x');
        const d = serve(dir, config, join(dir, 'blocker', 'runs'));
        const code = await exited(d.child, 15_000);
        if (code === null) await stopChild(d.child);
        check(code === 2, `exit ${String(code)}: ${d.output().slice(0, 400)}`);
        check(
          /COHERENCY_STORAGE_DIR: ".*" cannot be created/.test(d.output()),
          `no message naming the variable: ${d.output().slice(0, 400)}`,
        );
        return 'exit 2: COHERENCY_STORAGE_DIR: "…/blocker/runs" cannot be created';
      },
    ],
    [
      'store39: storage.dir: null writes nothing in the working directory, a failing run included',
      async () => {
        const port = await freePort();
        const simPort = await freePort();
        const { dir, config } = workDir(
          root,
          'null',
          port,
          `storage: { dir: null }\nsimulator: { enabled: true, port: ${simPort}, tokensPerSecond: 0 }\n`,
          `http://127.0.0.1:${simPort}/v1`,
          'collapse-sentence',
        );
        const d = serve(dir, config);
        try {
          await waitOk(`http://127.0.0.1:${port}/-/ready`, d.child, 15_000);
          const run = await runProbe(port);
          check(run.verdict === 'fail', `verdict ${run.verdict}`);
        } finally {
          await stopChild(d.child);
        }
        check(!existsSync(join(dir, 'data')), 'a data directory was made');
        return 'a fail run, no data/ made';
      },
    ],
    [
      "store39: the simulator's port taken: serve starts, the simulator moves, its target answers ok",
      async () => {
        const holder = createServer();
        await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
        const taken = (holder.address() as { port: number }).port;
        const port = await freePort();
        const { dir, config } = workDir(
          root,
          'sim-taken',
          port,
          `storage: { dir: null }\nsimulator: { enabled: true, port: ${taken}, tokensPerSecond: 0 }\n`,
          `http://127.0.0.1:${taken}/v1`,
        );
        const d = serve(dir, config);
        try {
          await waitOk(`http://127.0.0.1:${port}/-/ready`, d.child, 15_000);
          const said = new RegExp(
            `simulator port ${taken} is taken: the simulator listens on http://127\\.0\\.0\\.1:(\\d+)/v1 instead`,
          ).exec(d.output());
          check(said !== null, `no line saying where the simulator went: ${d.output().slice(0, 600)}`);
          const run = await runProbe(port);
          check(run.verdict === 'ok', `verdict ${run.verdict}`);
          return `simulator on ${said![1]} instead of ${taken}; the run on it: ok`;
        } finally {
          await stopChild(d.child);
          holder.close();
        }
      },
    ],
  ];
  await runCases(cases, results);
}
