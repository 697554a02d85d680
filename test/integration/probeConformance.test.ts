// `coherency-exporter probe --kind conformance` as a whole process against the simulator (with an
// API key, paced like a fast server): a healthy endpoint passes every check and exits 0; each
// defect switch makes exactly its check fail with its reason and exits 1; --json has every check.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFECTS, startSimulator, type Simulator } from '../../src/simulator/index.js';
import { CLI, ensureBuilt, freePort, makeTempDir, runCommand } from '../helpers/integrationProcess.js';

const KEY = 'sk-cli-conformance-canary-8d2e4f6a';
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_'))),
  OPENAI_API_KEY: KEY,
};
const probe = (args: string[]) => runCommand(process.execPath, [CLI, 'probe', ...args], { timeoutMs: 60_000, env });

/** The FAIL lines of a report: [check, reason]. */
const failures = (stdout: string) => [...stdout.matchAll(/^ {2}FAIL +(\S+) +(\S+) /gm)].map((m) => [m[1], m[2]]);

describe('probe --kind conformance', { timeout: 180_000 }, () => {
  let sim: Simulator;
  const tmp = makeTempDir('probe-conformance');
  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 2000, apiKey: KEY });
  });
  after(async () => {
    await sim?.close();
    tmp.remove();
  });
  const at = (defect: string) => (defect ? sim.url.replace(/\/v1$/, `/defect/${defect}/v1`) : sim.url);

  it('passes every check against the healthy simulator, prints the checklist and exits 0', async () => {
    const r = await probe(['--kind', 'conformance', '--base-url', sim.url, '--model', 'healthy']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^cli\/conformance #0: OK \(8 checks: 7 passed, 0 failed, 1 skipped, /);
    for (const check of ['models', 'chat', 'fields', 'tools', 'streaming', 'limits', 'auth'])
      assert.match(r.stdout, new RegExp(`^ {2}pass +${check} +ok +\\S`, 'm'), check);
    assert.match(r.stdout, /^ {2}skipped +reasoning +not_reasoning_model /m);
    assert.ok(!(r.stdout + r.stderr).includes(KEY), 'the key is not printed');
  });

  for (const defect of DEFECTS) {
    it(`${defect.name}: exactly ${defect.check} fails with ${defect.reason}, exit 1`, async () => {
      const reasoning = defect.check === 'reasoning' ? ['--model', 'reasoning', '--reasoning'] : ['--model', 'healthy'];
      const r = await probe(['--kind', 'conformance', '--base-url', at(defect.name), ...reasoning]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.deepEqual(failures(r.stdout), [[defect.check, defect.reason]], r.stdout);
      assert.ok(!(r.stdout + r.stderr).includes(KEY), 'the key is not printed');
    });
  }

  it('--json has every check with its status, reason and evidence', async () => {
    const r = await probe(['--kind', 'conformance', '--base-url', at('usage-missing'), '--model', 'healthy', '--json', '--quiet']);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as {
      exitCode: number;
      verdict: string;
      runs: {
        probe: string;
        samples: { outcome: { checks: { check: string; status: string; reason: string; evidence: object }[] } }[];
      }[];
    };
    assert.deepEqual([doc.exitCode, doc.verdict, doc.runs[0]!.probe], [1, 'fail', 'conformance']);
    const checks = doc.runs[0]!.samples[0]!.outcome.checks;
    assert.deepEqual(
      checks.map((c) => c.check),
      ['models', 'chat', 'fields', 'reasoning', 'tools', 'streaming', 'limits', 'auth'],
    );
    const streaming = checks.find((c) => c.check === 'streaming')!;
    assert.deepEqual([streaming.status, streaming.reason], ['fail', 'usage_chunk_missing']);
    assert.equal((streaming.evidence as { done: boolean }).done, true);
    assert.ok(!r.stdout.includes(KEY));
  });

  it('--checks runs only those; a dead endpoint exits 3; flags that do not apply exit 2', async () => {
    const some = await probe(['--kind', 'conformance', '--checks', 'auth,models', '--base-url', sim.url, '--model', 'healthy']);
    assert.equal(some.code, 0, some.stderr);
    assert.match(some.stdout, /\(2 checks: 2 passed/);
    const dead = await probe(['--kind', 'conformance', '--base-url', `http://127.0.0.1:${await freePort()}/v1`, '--model', 'healthy']);
    assert.equal(dead.code, 3, dead.stdout + dead.stderr);
    assert.match(dead.stdout, /ERROR/);
    for (const args of [
      ['--kind', 'conformance', '--base-url', sim.url, '--model', 'healthy', '--prompt', 'hi'],
      ['--kind', 'conformance', '--base-url', sim.url, '--model', 'healthy', '--min-tokens', '5'],
      ['--kind', 'conformance', '--base-url', sim.url, '--model', 'healthy', '--checks', 'models,speed'],
      ['--kind', 'quality', '--base-url', sim.url, '--model', 'healthy'],
    ]) {
      const bad = await probe(args);
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, /^error: .*(--prompt|--min-tokens|--checks|--kind)/);
    }
  });

  it('with --config, --kind conformance runs the conformance probes of the file', async () => {
    const file = join(tmp.dir, 'c.yaml');
    writeFileSync(
      file,
      `targets:
  - {name: sim, baseUrl: "${at('model-renamed')}", model: healthy, apiKeyEnv: OPENAI_API_KEY}
probes:
  - {name: short, prompt: hi, maxTokens: 50}
  - {name: checklist, kind: conformance, maxTokens: 200, checks: [models, chat]}
`,
    );
    const r = await probe(['--config', file, '--kind', 'conformance']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^sim\/checklist #0: FAIL \(2 checks: 1 passed, 1 failed/);
    assert.doesNotMatch(r.stdout, /sim\/short/);
  });
});
