import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freePort, stopChild, waitOk } from './childProcess.js';
import { printShares, profileShares, readProfile } from './profileSummary.js';

/**
 * Issues 11 and 19, "steady under load": 50 targets x 2 probes (3,000 tokens every 5 s, 8,000 tokens
 * every 10 s) against the built-in simulator at 2,000 tokens/s a stream, for 60 s. The daemon
 * (`serve`) and the simulator (`simulate`) run as processes; a worker thread of this process
 * polls /-/healthy every 50 ms and /metrics every second, each on a fresh connection (as a kubelet
 * and a Prometheus do), timing each answer to its last byte; this one scrapes /metrics every 5 s for the
 * daemon's own event-loop lag (prom-client's p99, reset at each scrape) and the run counters,
 * and reads the daemon's RSS and CPU time from /proc.
 *
 *   npm run bench -- load [--seconds N] [--before PATH/bin/coherency-exporter.js] [--profile]
 *
 * With --before, the same load runs first against that build (another checkout, e.g. main),
 * then against this one, and the figures are printed side by side. With --profile, each daemon
 * runs under `--cpu-prof` and the bench prints where its CPU went (bench/profileSummary.ts). The load average is
 * printed with each figure: on a shared machine it says how much the figures are worth.
 */

const TARGETS = 50;
const SIM_TOKENS_PER_SECOND = 2000;
const HEALTH_EVERY_MS = 50;
const METRICS_EVERY_MS = 1000;
const SCRAPE_EVERY_MS = 5000;
const HEALTH_TIMEOUT_MS = 10_000;
const THIS_CLI = fileURLToPath(new URL('../../bin/coherency-exporter.js', import.meta.url));

interface Figures {
  label: string;
  loadBefore: number;
  loadAfter: number;
  healthCount: number;
  healthFailed: number;
  healthP50: number;
  healthP99: number;
  healthMax: number;
  /** The five slowest health answers: when (s into the run) and how long. */
  healthSlowest: Array<{ atS: number; ms: number }>;
  /** /metrics timed from the worker (every METRICS_EVERY_MS, to the last byte). */
  metricsCount: number;
  metricsFailed: number;
  metricsP50: number;
  metricsP99: number;
  metricsMax: number;
  /** prom-client's nodejs_eventloop_lag_p99_seconds of each 5 s scrape window, in ms. */
  lagP99Windows: number[];
  lagMaxMs: number;
  /** How long each /metrics scrape took, in ms (its rendering blocks the daemon's loop too). */
  scrapeMs: number[];
  scrapeBytes: number;
  rssMaxMb: number;
  cpuCores: number;
  samples: number;
  tokens: number;
  ticksExpected: number;
  skipped: Record<string, number>;
  /** Non-JSON stderr/stdout lines (node-cron's own prints) and how many of them say "missed execution". */
  rawLines: number;
  rawMissed: number;
  loggedMissed: number;
}

/**
 * The /-/healthy poller, in a worker thread of its own: this process parses a /metrics body
 * of megabytes every 5 s, which must not delay the timing of health answers.
 */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const { targets, timeoutMs } = workerData;
const t0 = performance.now();
const results = targets.map(() => ({ answers: [], failed: 0 }));
let pending = 0;
let stopping = false;
const done = () => { if (stopping && pending === 0) { parentPort.postMessage(results); parentPort.close(); } };
const poll = (i) => {
  const start = performance.now();
  pending++;
  const end = (ok) => {
    if (ok) results[i].answers.push({ atS: (start - t0) / 1000, ms: performance.now() - start });
    else results[i].failed++;
    pending--;
    done();
  };
  const req = request(targets[i].url, { agent: false, timeout: timeoutMs }, (res) => {
    res.resume();
    res.on('end', () => end(res.statusCode === 200));
    res.on('error', () => end(false));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => end(false));
  req.end();
};
const timers = targets.map((t, i) => setInterval(() => poll(i), t.everyMs));
parentPort.on('message', () => { stopping = true; for (const t of timers) clearInterval(t); done(); });
`;

interface Polled {
  answers: Array<{ atS: number; ms: number }>;
  failed: number;
}

function startPoller(targets: Array<{ url: string; everyMs: number }>): { stop(): Promise<Polled[]> } {
  const worker = new Worker(POLLER, { eval: true, workerData: { targets, timeoutMs: HEALTH_TIMEOUT_MS } });
  const result = new Promise<Polled[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const r = await result;
      await worker.terminate();
      return r;
    },
  };
}

/** GET on a fresh connection; resolves with the status and the body, or rejects on error or timeout. */
function get(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Sum of a metric's series, optionally grouped by one label. */
function sumOf(text: string, name: string, byLabel?: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    const key = byLabel ? (new RegExp(`${byLabel}="([^"]*)"`).exec(line)?.[1] ?? '') : '';
    out[key] = (out[key] ?? 0) + value;
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function procStatus(pid: number): { rssMb: number; cpuSeconds: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMb: rss, cpuSeconds: ticks / 100 };
  } catch {
    return { rssMb: 0, cpuSeconds: 0 };
  }
}

function configYaml(port: number, simPort: number): string {
  const names = Array.from({ length: TARGETS }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
  // runs in memory, as every release before runs were kept on disk by default: the same work beside an older build
  return `server: { port: ${port} }
storage: { dir: null }
targets:
${names.map((n) => `  - { name: ${n}, baseUrl: "http://127.0.0.1:${simPort}/v1", model: healthy }`).join('\n')}
probes:
  - { name: short, prompt: "Write a long technical article.", maxTokens: 3000, schedule: "*/5 * * * * *" }
  - { name: long, prompt: "Write a very long technical article.", maxTokens: 8000, schedule: "*/10 * * * * *" }
`;
}

async function runOnce(label: string, cli: string, seconds: number, profileDir?: string): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-bench-load-'));
  const simPort = await freePort();
  const port = await freePort();
  const env = { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  const sim = spawn(process.execPath, [cli, 'simulate', '--port', String(simPort), '--tokens-per-second', String(SIM_TOKENS_PER_SECOND)], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env,
  });
  const file = join(dir, 'load.yaml');
  writeFileSync(file, configYaml(port, simPort));
  // --profile DIR: a V8 CPU profile of the daemon, for finding what the load costs
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const serve = spawn(process.execPath, [...profile, cli, 'serve', '--config', file], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let rawLines = 0;
  let rawMissed = 0;
  let loggedMissed = 0;
  const onLine = (line: string) => {
    if (line.trim() === '') return;
    const missed = /missed execution/i.test(line);
    let json = false;
    try {
      JSON.parse(line);
      json = true;
    } catch {
      /* a raw print */
    }
    if (!json) {
      rawLines++;
      if (missed) rawMissed++;
    } else if (missed) loggedMissed++;
  };
  for (const stream of [serve.stdout, serve.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) onLine(l);
    });
  }
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitOk(`http://127.0.0.1:${simPort}/v1/models`, sim, 15_000);
    await waitOk(`${base}/-/ready`, serve, 15_000);
    const loadBefore = loadavg()[0]!;
    const lagWindows: number[] = [];
    const scrapeMs: number[] = [];
    let scrapeBytes = 0;
    let lagMaxMs = 0;
    let rssMaxMb = 0;
    const cpu0 = procStatus(serve.pid!).cpuSeconds;
    const t0 = performance.now();
    // discard the window before the load starts
    await get(`${base}/metrics`, HEALTH_TIMEOUT_MS).catch(() => null);
    const poller = startPoller([
      { url: `${base}/-/healthy`, everyMs: HEALTH_EVERY_MS },
      { url: `${base}/metrics`, everyMs: METRICS_EVERY_MS },
    ]);
    const rss = setInterval(() => {
      rssMaxMb = Math.max(rssMaxMb, procStatus(serve.pid!).rssMb);
    }, 1000);
    let last = '';
    const scrape = async () => {
      try {
        const s0 = performance.now();
        const r = await get(`${base}/metrics`, HEALTH_TIMEOUT_MS);
        scrapeMs.push(performance.now() - s0);
        scrapeBytes = r.body.length;
        last = r.body;
        const p99 = sumOf(r.body, 'nodejs_eventloop_lag_p99_seconds')[''];
        const max = sumOf(r.body, 'nodejs_eventloop_lag_max_seconds')[''];
        if (p99 !== undefined) lagWindows.push(p99 * 1000);
        if (max !== undefined) lagMaxMs = Math.max(lagMaxMs, max * 1000);
      } catch {
        /* counted as a gap in the windows */
      }
    };
    const deadline = t0 + seconds * 1000;
    while (performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(SCRAPE_EVERY_MS, deadline - performance.now())));
      await scrape();
    }
    clearInterval(rss);
    const [health, scrapes] = await poller.stop();
    const { answers: timed, failed: healthFailed } = health!;
    const latencies = timed.map((a) => a.ms);
    const scrapeTimes = scrapes!.answers.map((a) => a.ms).sort((a, b) => a - b);
    const elapsed = (performance.now() - t0) / 1000;
    const cpu1 = procStatus(serve.pid!).cpuSeconds;
    const loadAfter = loadavg()[0]!;
    latencies.sort((a, b) => a - b);
    const tokens = sumOf(last, 'coherency_output_tokens_sum')[''] ?? 0;
    const samples = sumOf(last, 'coherency_probe_runs_total')[''] ?? 0;
    const skipped = sumOf(last, 'coherency_probe_skipped_total', 'reason');
    return {
      label,
      loadBefore,
      loadAfter,
      healthCount: latencies.length,
      healthFailed,
      healthP50: quantile(latencies, 0.5),
      healthP99: quantile(latencies, 0.99),
      healthMax: latencies.at(-1) ?? NaN,
      healthSlowest: timed.sort((a, b) => b.ms - a.ms).slice(0, 5),
      metricsCount: scrapeTimes.length,
      metricsFailed: scrapes!.failed,
      metricsP50: quantile(scrapeTimes, 0.5),
      metricsP99: quantile(scrapeTimes, 0.99),
      metricsMax: scrapeTimes.at(-1) ?? NaN,
      lagP99Windows: lagWindows,
      lagMaxMs,
      scrapeMs,
      scrapeBytes,
      rssMaxMb,
      cpuCores: (cpu1 - cpu0) / elapsed,
      samples,
      tokens,
      ticksExpected: Math.round(TARGETS * (elapsed / 5 + elapsed / 10)),
      skipped,
      rawLines,
      rawMissed,
      loggedMissed,
    };
  } finally {
    // a profiled daemon writes its profile only if it exits by itself: give it time
    await stopChild(serve, profileDir ? 120_000 : undefined);
    await stopChild(sim);
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '-');

function rows(f: Figures, seconds: number): [string, string][] {
  const lags = [...f.lagP99Windows].sort((a, b) => a - b);
  const skipped =
    Object.entries(f.skipped)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'no counter / none';
  return [
    ['load average (1 min) start / end', `${f.loadBefore.toFixed(2)} / ${f.loadAfter.toFixed(2)}`],
    ['/-/healthy p50 / p99 / max', `${ms(f.healthP50)} / ${ms(f.healthP99)} / ${ms(f.healthMax)}`],
    ['/-/healthy answered / failed', `${f.healthCount} / ${f.healthFailed}`],
    ['slowest /-/healthy (s into the run: ms)', f.healthSlowest.map((x) => `${x.atS.toFixed(1)}: ${Math.round(x.ms)}`).join(', ')],
    ['/metrics every 1 s p50 / p99 / max', `${ms(f.metricsP50)} / ${ms(f.metricsP99)} / ${ms(f.metricsMax)}`],
    ['/metrics answered / failed', `${f.metricsCount} / ${f.metricsFailed}`],
    ['event-loop lag p99, median / worst 5 s window', `${ms(quantile(lags, 0.5))} / ${ms(lags.at(-1) ?? NaN)}`],
    ['event-loop lag max', ms(f.lagMaxMs)],
    [
      '/metrics scrape median / max (body size)',
      `${ms(
        quantile(
          [...f.scrapeMs].sort((a, b) => a - b),
          0.5,
        ),
      )} / ${ms(f.scrapeMs.length ? Math.max(...f.scrapeMs) : NaN)} (${Math.round(f.scrapeBytes / 1024)} KiB)`,
    ],
    ['RSS max', `${Math.round(f.rssMaxMb)} MB`],
    ['daemon CPU (cores)', f.cpuCores.toFixed(2)],
    [
      'samples done / tokens read',
      `${f.samples} / ${Math.round(f.tokens).toLocaleString('en-US')} (${Math.round(f.tokens / seconds).toLocaleString('en-US')} tokens/s)`,
    ],
    ['ticks due (about) / skipped, by reason', `${f.ticksExpected} / ${skipped}`],
    ['raw (non-JSON) output lines / of them "missed execution"', `${f.rawLines} / ${f.rawMissed}`],
    ['"missed execution" through the logger', String(f.loggedMissed)],
  ];
}

function verdict(f: Figures): string {
  const lags = [...f.lagP99Windows].sort((a, b) => a - b);
  const checks = [
    [`healthy p99 < 100 ms`, f.healthP99 < 100 && f.healthFailed === 0],
    [`metrics p99 < 250 ms`, f.metricsP99 < 250 && f.metricsFailed === 0],
    [`lag p99 < 100 ms in every window`, (lags.at(-1) ?? Infinity) < 100],
    [`no uncounted missed run`, f.rawMissed === 0 && f.loggedMissed <= (f.skipped['missed_tick'] ?? 0)],
    [`RSS < 300 MB`, f.rssMaxMb < 300],
  ] as const;
  return checks.map(([name, ok]) => `${name}: ${ok ? 'met' : 'NOT met'}`).join('; ');
}

export async function runLoadBench(args: string[] = []): Promise<void> {
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const seconds = Number(opt('--seconds') ?? 60);
  const before = opt('--before');
  const results: Figures[] = [];
  const profileRoot = args.includes('--profile') ? mkdtempSync(join(tmpdir(), 'coherency-bench-profile-')) : null;
  const profileDir = (label: string) => (profileRoot ? join(profileRoot, label) : undefined);
  try {
    if (before) {
      console.log(`before: ${before} (${seconds} s)...`);
      results.push(await runOnce('before', before, seconds, profileDir('before')));
    }
    console.log(`after: ${THIS_CLI} (${seconds} s)...`);
    results.push(await runOnce('after', THIS_CLI, seconds, profileDir('after')));
    const table = results.map((f) => rows(f, seconds));
    const width = Math.max(...table[0]!.map(([k]) => k.length));
    const colWidth = Math.max(...table.flat().map(([, v]) => v.length), 6);
    console.log(
      `\n${TARGETS} targets x 2 probes (3,000 tokens every 5 s, 8,000 every 10 s), simulator at ${SIM_TOKENS_PER_SECOND} tokens/s a stream, ${seconds} s`,
    );
    console.log(`${''.padEnd(width)}  ${results.map((f) => f.label.padEnd(colWidth)).join('  ')}`);
    for (let i = 0; i < table[0]!.length; i++) {
      console.log(`${table[0]![i]![0].padEnd(width)}  ${table.map((t) => t[i]![1].padEnd(colWidth)).join('  ')}`);
    }
    if (profileRoot) {
      console.log("\nwhere the daemon's CPU went (V8 CPU profile; each sample charged to the innermost part of the program on its stack):");
      for (const f of results) {
        try {
          printShares(f.label, profileShares(readProfile(profileDir(f.label)!)));
        } catch (err) {
          console.log(`${f.label}: no profile (${(err as Error).message})`);
        }
      }
    }
  } finally {
    if (profileRoot) rmSync(profileRoot, { recursive: true, force: true });
  }
  for (const f of results) console.log(`${f.label}: ${verdict(f)}`);
}
