import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from './childProcess.js';
import { pino } from 'pino';
import { parseConfig } from '../src/config/parseConfig.js';
import type { RunResult } from '../src/probe/probeTypes.js';
import { runProbe } from '../src/probe/runProbe.js';
import { createRunStore, encodeStoredRun, fileNameFor } from '../src/state/runStore.js';
import { accumulatedStream } from './accumulatedStream.js';

/**
 * Issue 11, run history:
 * 1. Memory: ten runs of 20 samples x 40k tokens, built delta by delta as the stream builds
 *    them, through ProbeService into RunHistory, in a child process; RSS after gc over the
 *    child's baseline, for the default storage.historyMaxBytes and for a budget they overflow.
 * 2. Start-up: `serve` as a process over a storage.dir of 1,000 stored runs of ~390 KB; time
 *    from spawn to /-/ready 200, measured from outside, and the peak RSS (VmHWM).
 */

const MiB = 1024 * 1024;
const RUNS = 10;
const SAMPLES = 20;
const TOKENS = 40_000;
const STORED_RUNS = 1000;
const CLI = fileURLToPath(new URL('../../bin/coherency-exporter.js', import.meta.url));
const MEMORY_CHILD = fileURLToPath(new URL('./historyMemory.js', import.meta.url));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

interface MemoryFigures {
  historyMaxBytes: number;
  runs: number;
  producedBytes: number;
  keptBytes: number;
  rssBytes: number;
  heapBytes: number;
  seconds: number;
}

function memoryChild(historyMaxBytes: number): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', MEMORY_CHILD, ...[historyMaxBytes, RUNS, SAMPLES, TOKENS].map(String)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as MemoryFigures) : reject(new Error(`memory child exited ${code}`)),
    );
  });
}

async function memoryBench(): Promise<void> {
  console.log(
    `memory: ${RUNS} runs of ${SAMPLES} samples x ${TOKENS.toLocaleString('en-US')} tokens (half reasoning, half content, built delta by delta), RSS after gc over the baseline`,
  );
  for (const budget of [64 * MiB, 16 * MiB]) {
    const f = await memoryChild(budget);
    const met = f.keptBytes <= budget && f.rssBytes <= 2 * budget;
    console.log(
      `  historyMaxBytes ${budget / MiB} MiB: ${f.runs} runs kept, text ${mb(f.keptBytes)} of ${mb(f.producedBytes)} produced;` +
        ` RSS +${mb(f.rssBytes)}, heap +${mb(f.heapBytes)} (${f.seconds.toFixed(1)} s)` +
        ` — target text <= budget, RSS <= 2x budget: ${met ? 'met' : 'NOT met'}`,
    );
  }
}

/** One failing run of ~390 KB (4 samples x 20k tokens), its text built by the stream path; copied under new ids. */
async function storedRunTemplate(): Promise<RunResult> {
  const parsed = parseConfig(
    `targets: [{ name: bench, baseUrl: "http://127.0.0.1:9/v1", model: healthy }]
probes: [{ name: long, prompt: "Write a long technical article.", samples: 4, maxTokens: 20000 }]`,
    { env: {} },
  );
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const {
    targets: [target],
    probes: [probe],
  } = parsed.config;
  const run = await runProbe(
    target!,
    probe!,
    {
      stream: accumulatedStream(20_000),
      env: {},
      now: Date.now,
      logger: pino({ level: 'silent' }),
      newId: () => 'template',
    },
    'schedule',
  );
  run.samples[0]!.verdict = 'fail';
  run.verdict = 'fail';
  return run;
}

interface StartFigures {
  readyMs: number;
  peakRssBytes: number;
  listed: number;
  /** From spawn to the first /runs answer (asked right after ready): the stored runs indexed. */
  listedMs: number;
  showMs: number | null;
}

async function startServe(dir: string, stored: number): Promise<StartFigures> {
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    `server: { port: ${port} }
targets: [{ name: bench, baseUrl: "http://127.0.0.1:9/v1", model: healthy }]
probes: [{ name: long, prompt: "Write a long technical article.", maxTokens: 1000, schedule: "0 0 1 1 *" }]
storage: { dir: ${JSON.stringify(join(dir, 'runs'))}, maxRuns: ${STORED_RUNS}, maxBytes: ${1024 * MiB} }
`,
  );
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--config', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    let readyMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode})`);
      if (performance.now() - t0 > 60_000) throw new Error('serve not ready after 60 s');
      const ok = await fetch(`${base}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        readyMs = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    // the index of stored runs is built after the server listens; /runs answers once it is complete
    const { runs } = (await (await fetch(`${base}/runs?limit=1000`)).json()) as { runs: { id: string }[] };
    const listedMs = performance.now() - t0;
    // the peak once the index is built, not at ready (it is built after)
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const peakRssBytes = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024;
    let showMs: number | null = null;
    if (stored > 0 && runs[0]) {
      const t1 = performance.now();
      const res = await fetch(`${base}/runs/${runs[0].id}`);
      const body = (await res.json()) as { samples?: { content: string }[] };
      if (res.ok && body.samples?.[0]?.content) showMs = performance.now() - t1;
    }
    return { readyMs, peakRssBytes, listed: runs.length, listedMs, showMs };
  } finally {
    await stopChild(child);
  }
}

async function startupBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-bench-history-'));
  try {
    const empty = await startServe(dir, 0);
    console.log(`start-up, empty storage.dir: ${Math.round(empty.readyMs)} ms to /-/ready, peak RSS ${mb(empty.peakRssBytes)}`);
    const template = await storedRunTemplate();
    const runsDir = join(dir, 'runs');
    mkdirSync(runsDir, { recursive: true });
    let bytes = 0;
    for (let i = 0; i < STORED_RUNS; i++) {
      const run = { ...template, id: `stored-${i}`, startedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() };
      const text = encodeStoredRun(run);
      bytes += Buffer.byteLength(text);
      writeFileSync(join(runsDir, fileNameFor(run)), text, { mode: 0o600 });
    }
    console.log(`start-up: ${STORED_RUNS} stored runs written (${mb(bytes)}, ${mb(bytes / STORED_RUNS)} each)`);
    const full = await startServe(dir, STORED_RUNS);
    const met = full.readyMs < 1000 && full.peakRssBytes < 200e6;
    console.log(
      `start-up, ${STORED_RUNS} stored runs: ${Math.round(full.readyMs)} ms to /-/ready, /runs lists ${full.listed} at ${Math.round(full.listedMs)} ms, peak RSS ${mb(full.peakRssBytes)},` +
        ` GET /runs/:id ${full.showMs === null ? 'failed' : `${Math.round(full.showMs)} ms`} — target < 1 s, < 200 MB: ${met ? 'met' : 'NOT met'}`,
    );
    // the store's own share, in this process: what start-up adds over an empty storage.dir
    const store = createRunStore({ dir: runsDir, maxRuns: STORED_RUNS, maxBytes: 1024 * MiB, logger: pino({ level: 'silent' }) });
    const t0 = performance.now();
    const indexed = await store.open();
    console.log(`start-up, the store alone (in process): ${indexed} stored runs indexed in ${Math.round(performance.now() - t0)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench -- history [memory|startup]`: both parts, or one. */
export async function runHistoryBench(): Promise<void> {
  const part = process.argv[3];
  if (!part || part === 'memory') await memoryBench();
  if (!part || part === 'startup') await startupBench();
}
