import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { encodeStoredRun, fileNameFor } from '../../src/state/runStore.js';
import { exited, freePort, stopChild, waitOk } from '../childProcess.js';
import { CLI, check, NotHeld, runCases } from './shared.js';

/**
 * Issue 34, parts 3 and 6: what another process can put in a shared storage.dir (a FIFO, a
 * link to /dev/zero, a directory named like a run) must not stop the daemon; a second
 * instance that cannot bind must leave the folder as it found it; a file named on the command
 * line is read bounded. The daemon and the CLI run as child processes, every step bounded.
 */

/** Prints the child's peak RSS (KiB) on its standard error as it exits. */
const PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('\\npeak-rss-kib='+process.resourceUsage().maxRSS+'\\n'))`;

function storedRun(i: number): RunResult {
  return {
    id: `stored-${i}`,
    target: 't',
    probe: 'p',
    verdict: 'fail',
    trigger: 'schedule',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    durationSeconds: 1,
    samples: [{ verdict: 'fail', content: `text ${i}`, reasoning: '', findings: [], notes: [] } as unknown as RunResult['samples'][number]],
  };
}

function config(path: string, port: number, storage: string, maxRuns = 500): string {
  writeFileSync(
    path,
    `server: { host: 127.0.0.1, port: ${port} }
storage: { dir: ${JSON.stringify(storage)}, maxRuns: ${maxRuns} }
targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 10, schedule: "0 0 1 1 *", runOnStart: false }]
`,
  );
  return path;
}

function serve(configPath: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
  });
  let output = '';
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding('utf8').on('data', (c: string) => (output += c));
  return { child, output: () => output };
}

/** GET with a deadline; the status, or 0 when no answer came in time. */
async function status(url: string, timeoutMs = 2000): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })).status;
  } catch {
    return 0;
  }
}

type Case = [name: string, run: () => Promise<string>];

export async function storageCases(root: string, results: Array<[string, boolean, string]>): Promise<void> {
  const cases: Case[] = [
    [
      'storage: a FIFO, a link to /dev/zero and a directory named like runs in storage.dir',
      async () => {
        const storage = join(root, 'hostile-runs');
        mkdirSync(storage);
        for (let i = 1; i <= 3; i++) writeFileSync(join(storage, fileNameFor(storedRun(i))), encodeStoredRun(storedRun(i)));
        check(spawnSync('mkfifo', [join(storage, '20260101T000010000Z_fifo.json')]).status === 0, 'mkfifo failed');
        symlinkSync('/dev/zero', join(storage, '20260101T000011000Z_zero.json'));
        mkdirSync(join(storage, '20260101T000012000Z_dir.json'));
        const port = await freePort();
        const t0 = performance.now();
        const d = serve(config(join(root, 'hostile.yaml'), port, storage));
        try {
          await waitOk(`http://127.0.0.1:${port}/-/ready`, d.child, 20_000).catch((err: Error) => {
            throw new NotHeld(`not ready within 20 s: ${err.message}`);
          });
          const readyMs = performance.now() - t0;
          check((await status(`http://127.0.0.1:${port}/-/healthy`)) === 200, '/-/healthy did not answer');
          const runs = await fetch(`http://127.0.0.1:${port}/runs`, { signal: AbortSignal.timeout(5000) }).then(
            (r) => r.json() as Promise<{ runs: unknown[] }>,
          );
          check(runs.runs.length === 3, `${runs.runs.length} runs listed`);
          check(/skipping 3 files named like stored runs/.test(d.output()), 'the skipped files not logged as one line');
          const pid = d.child.pid!;
          const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(spawnSync('cat', [`/proc/${pid}/status`], { encoding: 'utf8' }).stdout)?.[1]);
          const t1 = performance.now();
          d.child.kill('SIGTERM');
          const code = await exited(d.child, 10_000);
          check(code === 0, `SIGTERM: exit ${code}`);
          return `ready in ${Math.round(readyMs)} ms, /-/healthy 200, 3 runs listed, 3 skipped in one log line, RSS ${Math.round(rssKiB / 1024)} MiB, SIGTERM exit 0 in ${Math.round(performance.now() - t1)} ms`;
        } finally {
          await stopChild(d.child);
        }
      },
    ],
    [
      'storage: a second instance that cannot bind its port',
      async () => {
        const storage = join(root, 'shared-runs');
        mkdirSync(storage);
        for (let i = 1; i <= 3; i++) writeFileSync(join(storage, fileNameFor(storedRun(i))), encodeStoredRun(storedRun(i)));
        const holder = createServer();
        await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
        const port = (holder.address() as { port: number }).port;
        try {
          // maxRuns 1: an instance that opened its store would delete two runs
          const d = serve(config(join(root, 'second.yaml'), port, storage, 1));
          const code = await exited(d.child, 20_000);
          await stopChild(d.child);
          check(code === 2, `exit ${code}: ${d.output().slice(-300)}`);
          const left = readdirSync(storage).length;
          check(left === 3, `${3 - left} of 3 stored runs deleted`);
          return 'exit 2 (address already in use), 3 of 3 stored runs left';
        } finally {
          holder.close();
        }
      },
    ],
    [
      'cli: probe --baseline /dev/zero and a FIFO',
      async () => {
        const fifo = join(root, 'baseline-fifo.json');
        check(spawnSync('mkfifo', [fifo]).status === 0, 'mkfifo failed');
        const said: string[] = [];
        for (const file of ['/dev/zero', fifo]) {
          const t0 = performance.now();
          const r = spawnSync(
            process.execPath,
            ['--import', PEAK, CLI, 'probe', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--baseline', file],
            { encoding: 'utf8', timeout: 15_000 },
          );
          const ms = performance.now() - t0;
          check(r.signal === null, `${file}: still running after 15 s`);
          check(r.status === 2, `${file}: exit ${r.status}`);
          const line = r.stderr.split('\n').find((l) => l.startsWith('error:')) ?? '';
          check(/not a regular file/.test(line), `${file}: said ${line || r.stderr.slice(0, 200)}`);
          const peak = Number(/peak-rss-kib=(\d+)/.exec(r.stderr)?.[1]) / 1024;
          check(peak < 150, `${file}: peak RSS ${Math.round(peak)} MiB`);
          said.push(`${file === fifo ? 'FIFO' : '/dev/zero'}: exit 2 in ${Math.round(ms)} ms, peak RSS ${Math.round(peak)} MiB`);
        }
        return `${said.join('; ')} ("is a device/named pipe (FIFO), not a regular file")`;
      },
    ],
  ];
  await runCases(cases, results);
}
