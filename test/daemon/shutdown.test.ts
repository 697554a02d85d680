import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon } from '../../src/daemon.js';
import { startSimulator } from '../../src/simulator/index.js';
import { silentLogger } from '../helpers/testConfig.js';

const cleanup: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of cleanup.reverse()) await c();
});

test('close() aborts a stream in flight and waits until its run is on disk', async () => {
  const sim = await startSimulator({ tokensPerSecond: 200 });
  cleanup.push(() => sim.close());
  const dir = await mkdtemp(join(tmpdir(), 'coherency-shutdown-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.yaml');
  await writeFile(
    file,
    `server: { port: 0 }
storage: { dir: ${JSON.stringify(join(dir, 'runs'))} }
targets: [{ name: forever, baseUrl: ${sim.url}, model: fault-forever }]
probes: [{ name: p, prompt: "Write.", maxTokens: 100000 }]
`,
  );
  const loaded = await loadConfig(file, {});
  assert.ok(loaded.ok);
  const daemon = await startDaemon({ config: loaded.config, configPath: file, logger: silentLogger, env: {} });
  const inFlight = fetch(`${daemon.url}/probe?target=forever&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  }).then(
    (r) => r.json(),
    () => null,
  );
  for (let i = 0; i < 100 && !sim.requests.some((r) => r.tokensSent > 20); i++) await new Promise((r) => setTimeout(r, 20));
  const t0 = Date.now();
  await daemon.close();
  assert.ok(Date.now() - t0 < 5000, 'closed promptly');
  const files = await readdir(join(dir, 'runs'));
  assert.equal(files.length, 1, `stored: ${files.join(', ')}`);
  assert.match(files[0]!, /\.json$/);
  const run = (await inFlight) as { samples: { error: { type: string } }[] } | null;
  assert.equal(run?.samples[0]?.error.type, 'aborted');
});
