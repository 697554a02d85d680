import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import type { RunResult } from '../../src/probe/probeTypes.js';
import { encodeStoredRun, fileNameFor } from '../../src/state/runStore.js';
import { captureLogger } from '../helpers/captureLogger.js';

// The daemon listens before its stored runs are indexed (start-up does not grow with storage.dir);
// /runs and /runs/:id wait for the index, so they never answer with part of it.
let daemon: Daemon | undefined;
let dir = '';
after(async () => {
  await daemon?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function storedRun(i: number): RunResult {
  return {
    id: `stored-${i}`,
    target: 't',
    probe: 'p',
    verdict: 'fail',
    trigger: 'schedule',
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    durationSeconds: 1,
    samples: [
      {
        verdict: 'fail',
        content: `output ${i} `.repeat(200),
        reasoning: '',
        findings: [],
        notes: [],
      } as unknown as RunResult['samples'][number],
    ],
  };
}

test('ready before the index is built; /runs lists every stored run and /runs/:id reads one, whenever they are asked', async () => {
  dir = await mkdtemp(join(tmpdir(), 'coherency-index-'));
  const runsDir = join(dir, 'runs');
  await mkdir(runsDir);
  const N = 400;
  await Promise.all(
    Array.from({ length: N }, (_, i) => writeFile(join(runsDir, fileNameFor(storedRun(i))), encodeStoredRun(storedRun(i)))),
  );
  const path = join(dir, 'config.yaml');
  await writeFile(
    path,
    `server: { host: 127.0.0.1, port: 0 }
storage: { dir: ${JSON.stringify(runsDir)}, maxRuns: 1000, maxBytes: 1000000000 }
targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 100 }]
`,
  );
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  const log = captureLogger();
  daemon = await startDaemon({ config: loaded.config, configPath: path, logger: log.logger, env: {} });
  // asked at once, before the index is complete
  const [list, one, ready] = await Promise.all([
    fetch(`${daemon.url}/runs?limit=1000`).then((r) => r.json() as Promise<{ runs: { id: string }[] }>),
    fetch(`${daemon.url}/runs/stored-7`).then((r) => r.json() as Promise<{ id: string; samples: { content: string }[] }>),
    fetch(`${daemon.url}/-/ready`).then((r) => r.status),
  ]);
  assert.equal(ready, 200);
  assert.equal(list.runs.length, N);
  assert.equal(list.runs[0]!.id, `stored-${N - 1}`, 'newest first');
  assert.equal(one.id, 'stored-7');
  assert.match(one.samples[0]!.content, /^output 7 /);
  const text = log.text();
  assert.ok(text.indexOf('stored runs indexed') > text.indexOf('coherency-exporter listening'), 'indexed after listening');
});

// Issue 34: a second daemon over the same storage.dir whose port is taken used to prune the
// folder before it failed (2 of 3 runs deleted): it must leave the folder as it found it.
test('a daemon that cannot bind its port deletes nothing in storage.dir, nor makes it', async () => {
  const base = await mkdtemp(join(tmpdir(), 'coherency-second-'));
  const holder = createServer();
  try {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const runsDir = join(base, 'runs');
    await mkdir(runsDir);
    for (let i = 0; i < 3; i++) await writeFile(join(runsDir, fileNameFor(storedRun(i))), encodeStoredRun(storedRun(i)));
    await writeFile(join(runsDir, `${fileNameFor(storedRun(9)).replace('.json', '')}.json.tmp-4242`), '{"half');
    const before = (await readdir(runsDir)).sort();
    for (const dirName of ['runs', 'absent']) {
      const path = join(base, `${dirName}.yaml`);
      await writeFile(
        path,
        `server: { host: 127.0.0.1, port: ${port} }
storage: { dir: ${JSON.stringify(join(base, dirName))}, maxRuns: 1, maxBytes: 1000000 }
targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 100 }]
`,
      );
      const loaded = await loadConfig(path, {});
      assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
      await assert.rejects(
        startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} }),
        (err: Error) => err.name === 'ListenError' && /address already in use/.test(err.message),
      );
    }
    // a store that was opened would delete now, in the background: give it the time to
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual((await readdir(runsDir)).sort(), before, 'no run and no temp file deleted');
    assert.deepEqual((await readdir(base)).sort(), ['absent.yaml', 'runs', 'runs.yaml'], 'storage.dir not made');
  } finally {
    holder.close();
    await rm(base, { recursive: true, force: true });
  }
});
