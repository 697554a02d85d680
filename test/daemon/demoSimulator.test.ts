// Issue 39: the demo starts with its simulator's port taken. The simulator moves to a free port
// and the targets that point at it follow; the others are left alone.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon } from '../../src/daemon.js';
import { followSimulator, startDemoSimulator } from '../../src/daemon/demoSimulator.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';

const config = testConfig({
  simulator: { enabled: true, host: '127.0.0.1', port: 8089, tokensPerSecond: 0 },
  targets: [
    testTarget({ name: 'sim', baseUrl: 'http://127.0.0.1:8089/v1' }),
    testTarget({ name: 'sim-localhost', baseUrl: 'http://localhost:8089/defect/buffered/v1' }),
    testTarget({ name: 'other-port', baseUrl: 'http://127.0.0.1:8000/v1' }),
    testTarget({ name: 'other-host', baseUrl: 'http://10.0.0.5:8089/v1' }),
    testTarget({ name: 'tls', baseUrl: 'https://127.0.0.1:8089/v1' }),
  ],
});

test('followSimulator moves the targets on the simulator to its new port, and only those', () => {
  const { config: moved, moved: names } = followSimulator(config, { host: '127.0.0.1', from: 8089, to: 40123 });
  assert.deepEqual(names, ['sim', 'sim-localhost']);
  assert.deepEqual(
    moved.targets.map((t) => t.baseUrl),
    [
      'http://127.0.0.1:40123/v1',
      'http://localhost:40123/defect/buffered/v1',
      'http://127.0.0.1:8000/v1',
      'http://10.0.0.5:8089/v1',
      'https://127.0.0.1:8089/v1',
    ],
  );
  assert.equal(config.targets[0]?.baseUrl, 'http://127.0.0.1:8089/v1', 'the config given is not changed');
  assert.equal(followSimulator(config, { host: '127.0.0.1', from: 8089, to: 8089 }).config, config);
  assert.equal(followSimulator(config, null).config, config);
});

test('followSimulator: a simulator on every address is reached by loopback names', () => {
  const { moved } = followSimulator(config, { host: '0.0.0.0', from: 8089, to: 40123 });
  assert.deepEqual(moved, ['sim', 'sim-localhost']);
});

async function hold(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return server;
}

test('startDemoSimulator: its port taken, it listens on a free one and says which', async () => {
  const taken = await hold();
  const port = (taken.address() as { port: number }).port;
  const log = captureLogger();
  const c = testConfig({
    simulator: { enabled: true, host: '127.0.0.1', port, tokensPerSecond: 0 },
    targets: [testTarget({ name: 'sim', baseUrl: `http://127.0.0.1:${port}/v1` })],
  });
  try {
    const { simulator, move } = await startDemoSimulator(c, log.logger);
    try {
      assert.notEqual(simulator.port, port);
      assert.deepEqual(move, { host: '127.0.0.1', from: port, to: simulator.port });
      const res = await fetch(`http://127.0.0.1:${simulator.port}/v1/models`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      assert.match(
        log.text(),
        new RegExp(
          `simulator port ${port} is taken: the simulator listens on http://127.0.0.1:${simulator.port}/v1 instead; the target on 127.0.0.1:${port} follows it`,
        ),
      );
    } finally {
      await simulator.close();
    }
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test('the daemon with its simulator port taken: the target on it runs ok, before and after a reload', { timeout: 60_000 }, async () => {
  const taken = await hold();
  const port = (taken.address() as { port: number }).port;
  const dir = await mkdtemp(join(tmpdir(), 'coherency-demo-sim-'));
  const path = join(dir, 'config.yaml');
  // The holder accepts and never answers: a target left on it would time out, not pass.
  await writeFile(
    path,
    `server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
simulator: { enabled: true, port: ${port}, tokensPerSecond: 0 }
targets: [{ name: t, baseUrl: "http://127.0.0.1:${port}/v1", model: healthy, timeouts: { connectSeconds: 2, idleSeconds: 3, totalSeconds: 10 } }]
probes: [{ name: p, prompt: "Write a long technical article.", maxTokens: 300, schedule: "0 0 1 1 *", runOnStart: false }]
`,
  );
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  const daemon = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  const verdict = async () =>
    (
      (await (
        await fetch(`${daemon.url}/probe?target=t&probe=p`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      ).json()) as { verdict: string }
    ).verdict;
  try {
    assert.notEqual(daemon.simulatorUrl, `http://127.0.0.1:${port}/v1`);
    assert.equal(await verdict(), 'ok');
    assert.deepEqual(await daemon.reload(), { ok: true });
    assert.equal(await verdict(), 'ok', 'the reloaded config follows the simulator too');
  } finally {
    await daemon.close();
    await new Promise((resolve) => taken.close(resolve));
    await rm(dir, { recursive: true, force: true });
  }
});
