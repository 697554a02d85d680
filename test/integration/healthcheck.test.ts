// `coherency-exporter healthcheck` (the Dockerfile's HEALTHCHECK) as a whole process: it
// finds the port in the config serve picks, answers 0 while serve runs and 1 once it stopped.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, ensureBuilt, freePort, makeTempDir, runCommand, startServe, waitReady, type Child } from '../helpers/integrationProcess.js';

describe('healthcheck command', { timeout: 45_000 }, () => {
  const tmp = makeTempDir('healthcheck');
  let serve: Child | undefined;
  after(async () => {
    await serve?.stop(2000);
    tmp.remove();
  });

  it('exits 0 against a running serve on the port of its config, 1 after it stopped, 2 on bad usage', async () => {
    ensureBuilt();
    const port = await freePort();
    const file = join(tmp.dir, 'hc.yaml');
    writeFileSync(
      file,
      `server: { host: 0.0.0.0, port: ${port} }
targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 10, schedule: "0 0 1 1 *", runOnStart: false }]
`,
    );
    serve = startServe([], { COHERENCY_CONFIG: file });
    await waitReady(serve, `http://127.0.0.1:${port}`);
    const env = { ...process.env, COHERENCY_CONFIG: file };
    const up = await runCommand(process.execPath, [CLI, 'healthcheck'], { timeoutMs: 15_000, env });
    assert.equal(up.code, 0, up.stderr);
    const wrongPort = await runCommand(process.execPath, [CLI, 'healthcheck', '--port', String(await freePort())], {
      timeoutMs: 15_000,
      env,
    });
    assert.equal(wrongPort.code, 1);
    assert.match(wrongPort.stderr, /unhealthy: http:\/\/127\.0\.0\.1:\d+\/-\/healthy: ECONNREFUSED/);
    await serve.stop(5000);
    const down = await runCommand(process.execPath, [CLI, 'healthcheck', '--config', file], { timeoutMs: 15_000 });
    assert.equal(down.code, 1);
    assert.match(down.stderr, new RegExp(`127\\.0\\.0\\.1:${port}.*address from ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    const bad = await runCommand(process.execPath, [CLI, 'healthcheck', '--timeout', 'soon'], { timeoutMs: 15_000 });
    assert.equal(bad.code, 2);
  });
});
