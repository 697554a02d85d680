// targets[].fingerprintReads and probe --no-fingerprint-reads: a counting proxy in front of the
// simulator sees every request a target gets. On (the default) the daemon reads /models and the
// info endpoints after a run; off it sends the chat requests and nothing else, and the run still
// has a fingerprint from the answers and a comparison.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../src/cli.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { READS_OFF } from '../../src/fingerprint/fetchIdentity.js';
import { INFO_ENDPOINTS } from '../../src/fingerprint/normalizeFingerprint.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { cliIO } from '../helpers/cliIO.js';
import { silentLogger } from '../helpers/testConfig.js';

interface CountingProxy {
  url: string;
  /** `METHOD /path` of every request, in order. */
  seen: string[];
  close(): Promise<void>;
}

/** Forwards every request to `upstream` (the simulator's origin) and notes its method and path. */
async function countingProxy(upstream: string): Promise<CountingProxy> {
  const seen: string[] = [];
  const to = new URL(upstream);
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const out = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const READ_PATHS = ['/v1/models', ...INFO_ENDPOINTS.map((e) => e.path), '/api/show'];
const reads = (p: CountingProxy) => p.seen.filter((s) => READ_PATHS.includes(s.split(' ')[1] ?? ''));

interface RunAnswer {
  verdict: string;
  fingerprint?: { model: string | null; version: string | null; unavailable: string[] };
}

/** Runs probe p on `target` now (POST /probe) and answers the run. */
async function runNow(daemon: Daemon, target: string): Promise<RunAnswer> {
  const res = await fetch(`${daemon.url}/probe?target=${target}&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 200);
  return (await res.json()) as RunAnswer;
}

/** The daemon's exposition lines of these metrics, sorted. */
async function metricLines(daemon: Daemon, ...names: string[]): Promise<string[]> {
  const text = await (await fetch(`${daemon.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => names.some((n) => l.startsWith(`${n}{`)))
    .sort();
}

let sim: Simulator;
let on: CountingProxy;
let off: CountingProxy;
const dir = mkdtempSync(join(tmpdir(), 'coherency-fpreads-'));
before(async () => {
  // a release far off: the simulator answers GET /version (release 1) all through the tests
  sim = await startSimulator({ port: 0, release: { after: 1_000_000 } });
  const origin = new URL(sim.url).origin;
  on = await countingProxy(origin);
  off = await countingProxy(origin);
});
after(async () => {
  await on.close();
  await off.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the daemon: a target with fingerprintReads false gets its chat requests and no read; one without the key is read', async () => {
  const parsed = parseConfig(
    `
server: { host: 127.0.0.1, port: 0 }
targets:
  - { name: on, baseUrl: "${on.url}/v1", model: healthy }
  - { name: off, baseUrl: "${off.url}/v1", model: healthy, fingerprintReads: false }
probes:
  - { name: p, prompt: "Write about caches.", maxTokens: 120, minTokens: 0, samples: 2 }
`,
    { env: {} },
  );
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
  assert.equal(parsed.config.targets[0]?.fingerprintReads, true, 'on by default');
  const daemon: Daemon = await startDaemon({ config: parsed.config, configPath: null, logger: silentLogger, env: {} });
  try {
    for (let i = 0; i < 2; i++) {
      const a = await runNow(daemon, 'on');
      const b = await runNow(daemon, 'off');
      assert.equal(a.verdict, 'ok');
      assert.equal(b.verdict, 'ok');
      assert.equal(a.fingerprint?.version, '1.0.0', 'read from GET /version');
      // off: the fingerprint of the answers alone, saying why it is thin
      assert.equal(b.fingerprint?.model, 'healthy');
      assert.equal(b.fingerprint?.version, null);
      assert.deepEqual(b.fingerprint?.unavailable, [READS_OFF]);
    }
    assert.deepEqual(off.seen, Array(4).fill('POST /v1/chat/completions'), 'the 4 samples and nothing else');
    assert.equal(off.seen.length, 4);
    // on: the first read tries every info endpoint; the second run is within 5 minutes (cached)
    assert.deepEqual(reads(on).sort(), ['GET /v1/models', ...INFO_ENDPOINTS.map((e) => `GET ${e.path}`)].sort());
    assert.equal(on.seen.filter((s) => s === 'POST /v1/chat/completions').length, 4);
    // the info series: the configured model beside the one the answers named, read or not; off,
    // the server and version are what the answers' Server header said
    const info = await metricLines(daemon, 'coherency_target_info');
    assert.deepEqual(info, [
      'coherency_target_info{target="off",server="coherency-simulator",version="1.0.0",model_revision="unknown",model="healthy",served_model="healthy"} 1',
      'coherency_target_info{target="on",server="vllm",version="1.0.0",model_revision="/models/simulated-r1",model="healthy",served_model="healthy"} 1',
    ]);
  } finally {
    await daemon.close();
  }
});

test('a reload that turns the reads off starts the fingerprint afresh: the info series keeps nothing only a read said', async () => {
  const { writeFile } = await import('node:fs/promises');
  const { loadConfig } = await import('../../src/config/loadConfig.js');
  const path = join(dir, 'reload.yaml');
  const config = (reads: boolean) => `
server: { host: 127.0.0.1, port: 0 }
targets: [{ name: t, baseUrl: "${on.url}/v1", model: healthy, fingerprintReads: ${reads} }]
probes: [{ name: p, prompt: "Write about caches.", maxTokens: 60, minTokens: 0 }]
`;
  await writeFile(path, config(true));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  const daemon = await startDaemon({ config: loaded.config, configPath: path, logger: silentLogger, env: {} });
  try {
    const runAndInfo = async () => {
      await runNow(daemon, 't');
      return metricLines(daemon, 'coherency_target_info', 'coherency_target_changes_total');
    };
    assert.ok((await runAndInfo()).some((l) => l.includes('server="vllm"') && l.includes('model_revision="/models/simulated-r1"')));
    await writeFile(path, config(false));
    assert.deepEqual(await daemon.reload(), { ok: true });
    on.seen.length = 0;
    const after = await runAndInfo();
    assert.deepEqual(reads(on), [], 'no read after the reload');
    assert.deepEqual(after, [
      'coherency_target_changes_total{target="t"} 0',
      'coherency_target_info{target="t",server="coherency-simulator",version="1.0.0",model_revision="unknown",model="healthy",served_model="healthy"} 1',
    ]);
  } finally {
    await daemon.close();
  }
});

test('probe --save-baseline reads each target once; with --no-fingerprint-reads it sends the probe alone', async () => {
  const probe = async (proxy: CountingProxy, file: string, more: string[]) => {
    const x = cliIO('', {});
    const args = ['probe', '--base-url', `${proxy.url}/v1`, '--model', 'healthy', '--max-tokens', '120', '--min-tokens', '0'];
    const code = await main([...args, '--save-baseline', file, '--quiet', ...more], x.io);
    assert.equal(code, 0, x.err());
    return JSON.parse(readFileSync(file, 'utf8')) as { fingerprints: Record<string, Record<string, unknown>> };
  };
  on.seen.length = 0;
  off.seen.length = 0;
  const read = await probe(on, join(dir, 'on.json'), []);
  assert.ok(reads(on).includes('GET /v1/models') && reads(on).includes('GET /version'), on.seen.join(', '));
  assert.equal(read.fingerprints['cli']?.['version'], '1.0.0');

  const quiet = await probe(off, join(dir, 'off.json'), ['--no-fingerprint-reads']);
  assert.deepEqual(off.seen, ['POST /v1/chat/completions']);
  assert.equal(quiet.fingerprints['cli']?.['model'], 'healthy', 'what the answer said');
  assert.equal(quiet.fingerprints['cli']?.['version'], null);
  assert.equal(quiet.fingerprints['cli']?.['unavailable'], READS_OFF);
});
