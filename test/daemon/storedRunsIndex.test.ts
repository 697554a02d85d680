import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
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
