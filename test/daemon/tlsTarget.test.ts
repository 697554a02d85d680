import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { repoPath } from '../helpers/repoRoot.js';

// The daemon loads its HTTP client and the per-target TLS pools only when they are needed (not before
// it is ready): a target behind a private CA must still be probed through its own pool, at start and
// after a reload that adds one.
const CERT = repoPath('test', 'fixtures', 'tls', 'cert.pem');
const KEY = repoPath('test', 'fixtures', 'tls', 'key.pem');

let server: Server;
let baseUrl: string;
let dir: string;
let daemon: Daemon | undefined;

before(async () => {
  server = createServer({ cert: readFileSync(CERT), key: readFileSync(KEY) }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end('data: {"choices":[{"index":0,"delta":{"content":"secure hello"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `https://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  dir = await mkdtemp(join(tmpdir(), 'coherency-tls-'));
});
after(async () => {
  await daemon?.close();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

const configText = (targets: string) => `
server: { host: 127.0.0.1, port: 0 }
storage: { dir: null }
targets:
${targets}
probes:
  - { name: p, prompt: "Write about storage engines.", maxTokens: 2000, minTokens: 0 }
`;

/** The sample's error type, or 'none' when the stream was read (its verdict does not matter here). */
async function probe(target: string): Promise<string> {
  const res = await fetch(`${daemon!.url}/probe?target=${target}&probe=p`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { samples: { verdict: string; error?: { type: string } | null }[] };
  return body.samples[0]!.error?.type ?? 'none';
}

test('a caFile target is probed through its own pool at start; a reload adds one, and a target without it is refused by the default pool', async () => {
  const path = join(dir, 'config.yaml');
  await writeFile(path, configText(`  - { name: private, baseUrl: "${baseUrl}", model: m, tls: { caFile: ${JSON.stringify(CERT)} } }`));
  const loaded = await loadConfig(path, {});
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.errors.join('\n'));
  daemon = await startDaemon({ config: loaded.config, configPath: path, logger: captureLogger().logger, env: {} });
  assert.equal(await probe('private'), 'none');

  await writeFile(
    path,
    configText(
      `  - { name: private, baseUrl: "${baseUrl}", model: m, tls: { caFile: ${JSON.stringify(CERT)} } }\n` +
        `  - { name: skip, baseUrl: "${baseUrl}", model: m, tls: { insecureSkipVerify: true } }\n` +
        `  - { name: plain, baseUrl: "${baseUrl}", model: m }`,
    ),
  );
  assert.deepEqual(await daemon.reload(), { ok: true });
  assert.equal(await probe('skip'), 'none');
  assert.equal(await probe('private'), 'none');
  assert.equal(await probe('plain'), 'connect');
});
