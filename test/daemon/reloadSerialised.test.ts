// Issue 19, items 1 and 2 of "Why": reloads are serialised (the newer file is the one applied,
// whatever the order the reads finish in) and a storm of reloads at the ticks loses no run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile as writeWhole } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { captureLogger } from '../helpers/captureLogger.js';

/** Written as config tools do (a new file renamed over the old), so a reload never reads half a file. */
async function writeFile(path: string, text: string): Promise<void> {
  await writeWhole(`${path}.new`, text);
  await rename(`${path}.new`, path);
}

let daemon: Daemon | undefined;
let sim: Simulator | undefined;
let dir = '';
after(() => Promise.all([daemon?.close(), sim?.close(), dir && rm(dir, { recursive: true, force: true })]));

/**
 * Version n of the file: its target is named v<n>, so every reload also removes a pair (and
 * forgets its series). An odd version is long (1.2 MB of comments), so reading it takes several
 * reads, and the reload that started on it can finish after the one that started next.
 */
const LONG_COMMENT = `${'# a long comment line, as a generated file may have\n'.repeat(24_000)}`;
const versioned = (url: string, n: number) => `${n % 2 ? LONG_COMMENT : ''}
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets: [{ name: v${n}, baseUrl: "${url}", model: healthy }]
probes: [{ name: p, prompt: "Write about caches.", maxTokens: 50 }]
`;

/** The target the running config has, read from the 404 that names the known targets. */
async function runningTarget(d: Daemon): Promise<string> {
  const res = await fetch(`${d.url}/probe?target=none&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { error } = (await res.json()) as { error: { message: string } };
  return /known: ([^)]*)\)/.exec(error.message)?.[1] ?? error.message;
}

test('a file changed twice with a reload (SIGHUP) and a POST /-/reload between ends with the newer file, 100 rounds', async () => {
  sim = await startSimulator({ tokensPerSecond: 0 });
  dir = await mkdtemp(join(tmpdir(), 'coherency-reload-'));
  const path = join(dir, 'config.yaml');
  await writeFile(path, versioned(sim.url, 0));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok);
  const d = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  daemon = d;
  const wrong: string[] = [];
  for (let round = 1; round <= 100; round++) {
    const older = 2 * round - 1;
    const newer = 2 * round;
    await writeFile(path, versioned(sim.url, older));
    const bySignal = d.reload(); // what SIGHUP calls
    await writeFile(path, versioned(sim.url, newer));
    const byPost = fetch(`${d.url}/-/reload`, { method: 'POST' }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const [signalled, posted] = await Promise.all([bySignal, byPost]);
    assert.deepEqual(signalled, { ok: true });
    assert.deepEqual(posted, { status: 200, body: { status: 'reloaded' } });
    const running = await runningTarget(d);
    if (process.env['DEBUG_RELOAD']) console.log(round, running);
    if (running !== `v${newer}`) wrong.push(`round ${round}: running ${running}, file v${newer}`);
  }
  assert.deepEqual(wrong, [], 'the newer file is applied in every round');
  await d.close();
  daemon = undefined;
});

// runOnStart off: a pair's first run (1 s after start for the first pair) can still be in flight at
// its first tick and be skipped as an overlap, which is no reload losing a run
const sixPairs = (url: string, version: number) => `
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets:
${['a', 'b', 'c'].map((t) => `  - { name: ${t}, baseUrl: "${url}", model: healthy }`).join('\n')}
probes:
  - { name: p, prompt: "Write about caches, version ${version}.", maxTokens: 20, schedule: "*/2 * * * * *", runOnStart: false }
  - { name: q, prompt: "Write about queues.", maxTokens: 20, schedule: "*/2 * * * * *", runOnStart: false }
`;

test('reloads every 300 ms (the file changing, schedules not) lose no scheduled run', async () => {
  sim ??= await startSimulator({ tokensPerSecond: 0 });
  dir ||= await mkdtemp(join(tmpdir(), 'coherency-reload-'));
  const path = join(dir, 'six.yaml');
  await writeFile(path, sixPairs(sim.url, 0));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok);
  daemon = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  const d = daemon;
  const t0 = Date.now();
  let version = 0;
  while (Date.now() - t0 < 8000) {
    await writeFile(path, sixPairs(sim.url, ++version));
    assert.deepEqual(await d.reload(), { ok: true });
    await new Promise((r) => setTimeout(r, 300));
  }
  const t1 = Date.now();
  // every pair ran at every tick of the storm: its runs are one interval (2 s) apart, never two
  const gaps: string[] = [];
  for (const target of ['a', 'b', 'c']) {
    for (const probe of ['p', 'q']) {
      const { runs } = (await (await fetch(`${d.url}/runs?target=${target}&probe=${probe}`)).json()) as {
        runs: Array<{ startedAt: string }>;
      };
      const starts = runs
        .map((r) => Date.parse(r.startedAt))
        .filter((at) => at >= t0 && at <= t1)
        .sort((x, y) => x - y);
      if (starts.length < 3) gaps.push(`${target}/${probe}: ${starts.length} runs in 8 s`);
      for (let i = 1; i < starts.length; i++) {
        const gap = starts[i]! - starts[i - 1]!;
        if (gap > 3000) gaps.push(`${target}/${probe}: ${gap} ms between two runs`);
      }
    }
  }
  const skipped = (await (await fetch(`${d.url}/metrics`)).text())
    .split('\n')
    .filter((l) => l.startsWith('coherency_probe_skipped_total{'));
  assert.deepEqual(gaps, [], `no tick lost (skipped: ${skipped.join('; ') || 'none'})`);
  assert.deepEqual(skipped, []);
});
