// Signals from the first instruction (issue 11, item 5): SIGHUPs sent while serve starts (a
// config-reloader sidecar does exactly this) are held and applied once it is up, instead of
// killing it; a SIGTERM during start-up stops it cleanly.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureBuilt, freePort, makeTempDir, startServe, waitReady, type Child } from '../helpers/integrationProcess.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the process catches SIGHUP (Linux: bit 0 of SigCgt in /proc/PID/status), i.e.
 * until its first JavaScript instruction has run: before that no program can handle it.
 */
async function waitCatchesSighup(pid: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const caught = /^SigCgt:\s*([0-9a-f]+)/m.exec(status)?.[1];
    if (caught && (BigInt(`0x${caught}`) & 1n) === 1n) return;
    await sleep(2);
  }
  throw new Error('the process never installed a SIGHUP handler');
}

describe('signals during start-up', { timeout: 60_000 }, () => {
  const tmp = makeTempDir('startup-signals');
  const children: Child[] = [];
  after(async () => {
    for (const c of children) await c.stop(2000);
    tmp.remove();
  });

  async function configFile(): Promise<{ file: string; port: number }> {
    const port = await freePort();
    const file = join(tmp.dir, `c${port}.yaml`);
    writeFileSync(
      file,
      `server: { port: ${port} }
targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 10, schedule: "0 0 1 1 *", runOnStart: false }]
`,
    );
    return { file, port };
  }

  it('SIGHUPs from the launch on do not kill serve; one reload is applied after start-up', async () => {
    ensureBuilt();
    const { file, port } = await configFile();
    const serve = startServe(['--config', file], { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    children.push(serve);
    await waitCatchesSighup(serve.process.pid!); // the launcher's first instruction ran; the CLI is still loading
    let sent = 0;
    let ready = false;
    const readyP = waitReady(serve, `http://127.0.0.1:${port}`).then(() => (ready = true));
    while (!ready && serve.exit() === null && sent < 200) {
      serve.process.kill('SIGHUP');
      sent++;
      await sleep(20);
    }
    await readyP;
    assert.equal(serve.exit(), null, `serve died: ${serve.stderr()}`);
    assert.ok(sent >= 2, `only ${sent} SIGHUP sent before ready`);
    await sleep(300);
    const lines = serve
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string });
    assert.ok(
      lines.some((l) => l.msg === 'SIGHUP during start-up: reloading the config now'),
      serve.stdout().slice(-2000),
    );
    assert.ok(lines.some((l) => l.msg === 'config reloaded' || /reload/.test(l.msg)));
  });

  it('a SIGTERM during start-up stops serve with exit 0', async () => {
    const { file } = await configFile();
    const serve = startServe(['--config', file], { LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    children.push(serve);
    await waitCatchesSighup(serve.process.pid!);
    serve.process.kill('SIGTERM');
    const exit = await serve.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, serve.stderr());
  });
});
