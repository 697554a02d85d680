import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { captureLogger } from '../helpers/captureLogger.js';

// A reload that changes a probe's temperature sweep drops the series of the temperatures no longer
// swept; a probe whose sweep did not change keeps its counts.
let daemon: Daemon | undefined;
let sim: Simulator | undefined;
let dir = '';
after(async () => {
  await daemon?.close();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const configText = (url: string, temps: string) => `
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets: [{ name: t, baseUrl: "${url}", model: healthy }]
probes:
  - { name: sweep, prompt: "Write about caches.", maxTokens: 300, temperatures: ${temps} }
  - { name: steady, prompt: "Write about queues.", maxTokens: 300, temperatures: [0, 0.5] }
`;

const runsSeries = async (d: Daemon) =>
  (await (await fetch(`${d.url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('coherency_probe_samples_total{'));

test('a reload that changes temperatures forgets the old temperatures series of that probe only', async () => {
  sim = await startSimulator({ tokensPerSecond: 0 });
  dir = await mkdtemp(join(tmpdir(), 'coherency-sweep-'));
  const path = join(dir, 'config.yaml');
  await writeFile(path, configText(sim.url, '[0, 0.6]'));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  daemon = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  for (const probe of ['sweep', 'steady'])
    assert.equal(
      (
        await fetch(`${daemon.url}/probe?target=t&probe=${probe}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
      200,
    );
  const beforeReload = await runsSeries(daemon);
  assert.ok(
    beforeReload.some((l) => l.includes('probe="sweep"') && l.includes('temperature="0.6"') && l.endsWith(' 1')),
    beforeReload.join('\n'),
  );

  await writeFile(path, configText(sim.url, '[0, 1]'));
  assert.deepEqual(await daemon.reload(), { ok: true });
  const afterReload = await runsSeries(daemon);
  assert.ok(!afterReload.some((l) => l.includes('temperature="0.6"')), `0.6 is no longer swept:\n${afterReload.join('\n')}`);
  // the unchanged probe keeps its counts
  assert.ok(
    afterReload.some((l) => l.includes('probe="steady"') && l.includes('temperature="0.5"') && l.endsWith(' 1')),
    afterReload.join('\n'),
  );
  assert.equal(
    (
      await fetch(`${daemon.url}/probe?target=t&probe=sweep`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).status,
    200,
  );
  const afterRun = await runsSeries(daemon);
  assert.ok(
    afterRun.some((l) => l.includes('probe="sweep"') && l.includes('temperature="1"') && l.endsWith(' 1')),
    afterRun.join('\n'),
  );
});
