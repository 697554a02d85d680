// Issue 2 "Done when": `npm start` (serve with config/coherency.yaml, which starts the built-in
// simulator and probes it on fast schedules) shows completed ok and fail runs within 60 s.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseDocument } from 'yaml';
import { demoConfig } from '../helpers/demoConfig.js';
import {
  canBind,
  ensureBuilt,
  fetchText,
  freePort,
  makeTempDir,
  parseExposition,
  ROOT,
  startServe,
  waitFor,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';

const SHIPPED = join(ROOT, 'config', 'coherency.yaml');
const DEADLINE_MS = 60_000;

describe('the shipped default config', { timeout: DEADLINE_MS + 20_000 }, () => {
  const tmp = makeTempDir('default-config');
  let serve: Child | undefined;
  after(async () => {
    await serve?.stop(5000);
    tmp.remove();
  });

  it('serves /metrics with a completed ok run and a completed fail run within 60 s', async (t) => {
    ensureBuilt();
    const shipped = readFileSync(SHIPPED, 'utf8');
    const simPort = Number(parseDocument(shipped).getIn(['simulator', 'port']));
    assert.ok(parseDocument(shipped).getIn(['simulator', 'enabled']) === true, 'the default config must start the simulator');

    // The server port is always a free one (a developer's exporter may hold 9464); the file
    // itself is used as shipped unless another process holds the simulator's port, before
    // the start or (a race) during it.
    const moved = async (): Promise<string> => {
      const simulatorPort = await freePort();
      const file = join(tmp.dir, 'coherency.yaml');
      writeFileSync(file, demoConfig({ simulatorPort }, shipped));
      t.diagnostic(`127.0.0.1:${simPort} is busy: simulator moved to ${simulatorPort} in a copy of the config`);
      return file;
    };
    let base = '';
    let started = 0;
    for (const attempt of [1, 2]) {
      const config = attempt === 1 && (await canBind(simPort)) ? SHIPPED : await moved();
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      started = Date.now();
      serve = startServe(['--config', config, '--port', String(port)]);
      try {
        await waitReady(serve, base);
        break;
      } catch (err) {
        if (attempt === 2 || config !== SHIPPED || !/EADDRINUSE|address already in use/.test(serve.stderr() + serve.stdout())) throw err;
        await serve.stop(2000);
      }
    }

    const seen = await waitFor(
      'coherency_probe_runs_total with verdict ok >= 1 and fail >= 1',
      async () => {
        const { status, body } = await fetchText(`${base}/metrics`);
        if (status !== 200) return undefined;
        const byVerdict: Record<string, number> = {};
        const byTarget: string[] = [];
        for (const s of parseExposition(body)) {
          if (s.name !== 'coherency_probe_runs_total' || s.value === 0) continue;
          const verdict = s.labels['verdict'] ?? '?';
          byVerdict[verdict] = (byVerdict[verdict] ?? 0) + s.value;
          byTarget.push(`${s.labels['target']}/${s.labels['probe']} ${verdict}=${s.value}`);
        }
        return (byVerdict['ok'] ?? 0) >= 1 && (byVerdict['fail'] ?? 0) >= 1 ? byTarget : undefined;
      },
      { timeoutMs: Math.max(1000, DEADLINE_MS - (Date.now() - started)), intervalMs: 500 },
    );
    const elapsed = Date.now() - started;
    t.diagnostic(`ok and fail runs after ${(elapsed / 1000).toFixed(1)} s: ${seen.join(', ')}`);
    assert.ok(elapsed <= DEADLINE_MS, `took ${elapsed} ms`);
  });
});
