// What a baseline keeps of each target's fingerprint (src/fingerprint, read once after the run)
// and what `probe --baseline` shows of it, against the simulator's release switch: release 1
// until N chat requests, then release 2 (another version, system_fingerprint, Server header
// and /models root) that loops. A changed fingerprint is shown beside the figures, never judged.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Baseline } from '../../src/baseline/baselineFormat.js';
import type { Comparison } from '../../src/baseline/compareBaselines.js';
import { main } from '../../src/cli.js';
import { startSimulator } from '../../src/simulator/index.js';
import { cliIO } from '../helpers/cliIO.js';

const dir = mkdtempSync(join(tmpdir(), 'coherency-baseline-fp-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const flags = (url: string, more: string[]) => [
  'probe',
  '--base-url',
  url,
  '--model',
  'healthy',
  '--max-tokens',
  '600',
  '--temperature',
  '0',
  '--seed',
  '7',
  ...more,
];
async function probe(args: string[]) {
  const x = cliIO('', {});
  const code = await main(args, x.io);
  return { code, out: x.out(), err: x.err() };
}
const readBaseline = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Baseline;

describe('a baseline keeps the fingerprint; --baseline shows what changed', { timeout: 60_000 }, () => {
  it('saved against release 1: server, version, revision, system_fingerprint, Server header and hash', async () => {
    const sim = await startSimulator({ port: 0, release: { after: 1 } });
    try {
      const file = join(dir, 'r1.json');
      const saved = await probe(flags(sim.url, ['--save-baseline', file]));
      assert.equal(saved.code, 0, saved.err);
      const fp = readBaseline(file).fingerprints['cli']!;
      assert.equal(fp['server'], 'vllm', 'named by the /version endpoint that answered');
      assert.equal(fp['version'], '1.0.0');
      assert.equal(fp['modelRevision'], '/models/simulated-r1');
      assert.equal(fp['systemFingerprint'], 'fp_sim_r1');
      assert.equal(fp['headers.server'], 'coherency-simulator/1.0.0');
      assert.equal(fp['ownedBy'], 'coherency-simulator');
      assert.equal(fp['answeredModel'], 'healthy');
      assert.match(fp['hash'] ?? '', /^[0-9a-f]{12}$/);
      assert.equal(fp['unavailable'], null);

      // the next chat request is release 2's: it loops, and says it is 2.0.0
      const r = await probe(flags(sim.url, ['--baseline', file]));
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /failed share +0% +100% .*WORSE/);
      assert.match(r.out, /what the targets say of themselves, changed \(not judged\):/);
      assert.match(r.out, /^ {2}cli: version 1\.0\.0 → 2\.0\.0$/m);
      assert.match(r.out, /^ {2}cli: systemFingerprint fp_sim_r1 → fp_sim_r2$/m);
      assert.match(r.out, /^ {2}cli: modelRevision \/models\/simulated-r1 → \/models\/simulated-r2$/m);
      assert.doesNotMatch(r.out, /cli: hash /);

      const j = await probe(flags(sim.url, ['--baseline', file, '--json']));
      assert.equal(j.code, 1, j.err);
      const c = (JSON.parse(j.out) as { comparison: Comparison }).comparison;
      assert.deepEqual(
        c.fingerprintChanges.filter((f) => f.field === 'version'),
        [{ target: 'cli', field: 'version', before: '1.0.0', after: '2.0.0' }],
      );
      assert.ok(c.fingerprintChanges.some((f) => f.field === 'headers.server' && f.after === 'coherency-simulator/2.0.0'));
    } finally {
      await sim.close();
    }
  });

  it('an unchanged build: no fingerprint difference shown, exit 0', async () => {
    const sim = await startSimulator({ port: 0, release: { after: 100 } });
    try {
      const file = join(dir, 'same.json');
      assert.equal((await probe(flags(sim.url, ['--save-baseline', file]))).code, 0);
      assert.equal(readBaseline(file).fingerprints['cli']!['version'], '1.0.0');
      const r = await probe(flags(sim.url, ['--baseline', file]));
      assert.equal(r.code, 0, r.out + r.err);
      assert.doesNotMatch(r.out, /what the targets say of themselves/);
      const j = await probe(flags(sim.url, ['--baseline', file, '--json']));
      assert.deepEqual((JSON.parse(j.out) as { comparison: Comparison }).comparison.fingerprintChanges, []);
    } finally {
      await sim.close();
    }
  });

  it('a target whose fingerprint cannot be read: the probe passes, the reads that failed are recorded', async () => {
    // answers chat; every other request has its connection cut
    const server = createServer((req, res) => {
      if (req.method !== 'POST') return void req.socket.destroy();
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = { model: 'healthy', choices: [{ index: 0, delta: { content: 'A short, plain answer.' }, finish_reason: 'stop' }] };
        res.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
      const file = join(dir, 'unread.json');
      const r = await probe(['probe', '--base-url', url, '--model', 'healthy', '--max-tokens', '50', '--save-baseline', file]);
      assert.equal(r.code, 0, r.err);
      const fp = readBaseline(file).fingerprints['cli']!;
      assert.equal(fp['server'], null);
      assert.equal(fp['version'], null);
      assert.equal(fp['answeredModel'], 'healthy', 'what the responses said is kept');
      assert.match(fp['unavailable'] ?? '', /\/models: connect/);
      assert.match(fp['unavailable'] ?? '', /info: none of \/version/);
    } finally {
      server.close();
    }
  });
});
