// `coherency-exporter probe --save-baseline` then `--baseline` as whole processes, with a config
// of several target x probe pairs (generation at temperature 0 with a seed, recall, conformance)
// against the simulator, then against its degraded build (/build/degraded@N/v1): exit 0 on the
// same build, 1 on the degraded one with each worse figure named, 2 for a refused baseline.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Baseline } from '../../src/baseline/baselineFormat.js';
import type { Comparison } from '../../src/baseline/compareBaselines.js';
import { startSimulator } from '../../src/simulator/index.js';
import { CLI, ensureBuilt, makeTempDir, runCommand } from '../helpers/integrationProcess.js';

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_')));
const probe = (args: string[]) => runCommand(process.execPath, [CLI, 'probe', ...args], { timeoutMs: 60_000, env });

function config(root: string, build: string): string {
  return `targets:
  - name: writer
    baseUrl: ${root}${build}/v1
    model: healthy
    probes: [long, conformance]
  - name: memory
    baseUrl: ${root}${build}/v1
    model: echo-all
    probes: [recall]
probes:
  - name: long
    prompt: Write a long technical article.
    maxTokens: 1200
    temperature: 0
    samples: 2
    extraBody: { seed: 42 }
  - name: recall
    kind: recall
    maxTokens: 256
    conversationTokens: 2000
    facts: 5
    positions: [start, middle, end]
  - name: conformance
    kind: conformance
    maxTokens: 512
    checks: [models, chat, fields]
`;
}

describe('probe --baseline as a process', { timeout: 180_000 }, () => {
  const tmp = makeTempDir('probe-baseline');
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let root = '';
  const file = join(tmp.dir, 'baseline.json');
  const write = (name: string, build: string) => {
    const path = join(tmp.dir, name);
    writeFileSync(path, config(root, build));
    return path;
  };
  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    root = sim.url.replace(/\/v1$/, '');
  });
  after(async () => {
    await sim?.close();
    tmp.remove();
  });

  it('saves a baseline of every pair, then passes the same build (exit 0)', async () => {
    const same = write('same.yaml', '');
    const saved = await probe(['--config', same, '--save-baseline', file]);
    assert.equal(saved.code, 0, saved.stdout + saved.stderr);
    const b = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
    assert.deepEqual(
      b.pairs.map((p) => `${p.target}/${p.probe}`),
      ['writer/long', 'writer/conformance', 'memory/recall'],
    );
    assert.equal(b.pairs[0]!.outputs.length, 2, 'both samples at temperature 0 kept as tokens');
    assert.equal(b.pairs[2]!.recall, 1);
    assert.deepEqual(b.pairs[1]!.conformance, { models: 'pass', chat: 'pass', fields: 'pass' });
    assert.equal(b.fingerprints['writer']!['answeredModel'], 'healthy', 'the conformance checklist saw what the answers call the model');
    const again = await probe(['--config', same, '--baseline', file]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /writer\/long #0: identical/);
    assert.match(again.stdout, /writer\/long #1: identical/);
    assert.match(again.stdout, /result: no regression beyond the tolerances\n$/);
  });

  it('fails the degraded build (exit 1), naming each worse figure and where the outputs depart', async () => {
    const r = await probe(['--config', write('degraded.yaml', '/build/degraded@100'), '--baseline', file, '--json']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as { exitCode: number; comparison: Comparison };
    assert.equal(doc.exitCode, 1);
    const worse = doc.comparison.rows.filter((x) => x.regressed).map((x) => `${x.target}/${x.probe} ${x.figure}`);
    assert.ok(worse.includes('writer/long failed share'), worse.join());
    assert.ok(worse.includes('memory/recall recall'), worse.join());
    const departures = doc.comparison.outputs.map((o) => o.comparison);
    assert.equal(departures.length, 2);
    for (const d of departures) assert.ok(!d.identical && d.tokenIndex > 80 && d.tokenIndex < 120, JSON.stringify(d));
    assert.deepEqual(
      doc.comparison.fingerprintChanges.map((f) => `${f.target} ${f.field}`),
      ['writer origin', 'memory origin'],
    );
  });

  it('refuses a baseline of other pairs (exit 2) and says which', async () => {
    const r = await probe(['--config', write('same2.yaml', ''), '--target', 'writer', '--baseline', file]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /^error: --baseline .*: refused: the baseline has memory\/recall, which this run does not select\n$/);
    const corrupt = join(tmp.dir, 'corrupt.json');
    writeFileSync(corrupt, '{"format": "coherency-baseline"');
    const c = await probe(['--config', write('same3.yaml', ''), '--baseline', corrupt]);
    assert.equal(c.code, 2);
    assert.match(c.stderr, /corrupt\.json: not JSON/);
  });
});
