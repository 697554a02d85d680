// `coherency-exporter probe --config` as a whole process against the built-in simulator: targets
// with api: completions and api: responses probed end to end (verdict, early close, usage), their
// captures saved and judged again by `analyze`, and a conformance probe checking each in its own API.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSimulator } from '../../src/simulator/index.js';
import { CLI, ensureBuilt, makeTempDir, runCommand } from '../helpers/integrationProcess.js';

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_')));
const cli = (args: string[]) => runCommand(process.execPath, [CLI, ...args], { timeoutMs: 60_000, env });

interface Doc {
  verdict: string;
  runs: {
    target: string;
    probe: string;
    samples: {
      verdict: string;
      aborted: boolean;
      outputTokens: number;
      finishReason: string | null;
      reasoningChars: number;
      error: unknown;
    }[];
  }[];
}

describe('probe: targets on the completions and responses APIs', { timeout: 180_000 }, () => {
  const tmp = makeTempDir('probe-apis');
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 2000 });
  });
  after(async () => {
    await sim?.close();
    tmp.remove();
  });

  it('healthy targets pass, looping ones fail with the stream closed early; analyze re-judges the captures', async () => {
    const file = join(tmp.dir, 'apis.yaml');
    writeFileSync(
      file,
      `targets:
  - { name: base-ok, baseUrl: "${sim.url}", model: healthy, api: completions }
  - { name: base-loop, baseUrl: "${sim.url}", model: "collapse-sentence@400", api: completions }
  - { name: resp-ok, baseUrl: "${sim.url}", model: reasoning, api: responses }
  - { name: resp-loop, baseUrl: "${sim.url}", model: "collapse-sentence@400", api: responses }
probes:
  - { name: long, prompt: "Write a long article about databases.", maxTokens: 3000, minTokens: 500 }
`,
    );
    const saved = join(tmp.dir, 'saved');
    const r = await cli(['probe', '--config', file, '--json', '--quiet', '--save', saved]);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as Doc;
    const by = Object.fromEntries(doc.runs.map((run) => [run.target, run.samples[0]!]));
    for (const name of ['base-ok', 'resp-ok']) {
      const s = by[name]!;
      assert.deepEqual([s.verdict, s.aborted, s.outputTokens, s.finishReason, s.error], ['ok', false, 3000, 'length', null], name);
    }
    assert.ok(by['resp-ok']!.reasoningChars > 0, 'the responses reasoning channel');
    for (const name of ['base-loop', 'resp-loop']) {
      const s = by[name]!;
      assert.equal(s.verdict, 'fail', name);
      assert.equal(s.aborted, true, name);
      assert.ok(s.outputTokens < 1000, `${name}: ${s.outputTokens} tokens`);
    }
    for (const [name, verdict, code] of [
      ['resp-loop', 'fail', 1],
      ['resp-ok', 'ok', 0],
      ['base-loop', 'fail', 1],
    ] as const) {
      const capture = join(saved, name, 'long', 'sample-0', 'capture.sse');
      if (name.startsWith('resp')) assert.match(readFileSync(capture, 'utf8'), /^event: response\.created/);
      const again = await cli(['analyze', capture, '--json', '--channel', 'both']);
      assert.equal(again.code, code, `${name}: ${again.stderr}${again.stdout.slice(0, 500)}`);
      assert.equal((JSON.parse(again.stdout) as { verdict: string }).verdict, verdict, name);
    }
  });

  it('probe --base-url --api: one endpoint on the completions or responses API without a config', async () => {
    for (const api of ['completions', 'responses']) {
      const r = await cli(['probe', '--base-url', sim.url, '--model', 'healthy', '--api', api, '--max-tokens', '300', '--json', '--quiet']);
      assert.equal(r.code, 0, r.stderr);
      const s = (JSON.parse(r.stdout) as Doc).runs[0]!.samples[0]!;
      assert.deepEqual([s.verdict, s.outputTokens], ['ok', 300], api);
      assert.equal(sim.requests.at(-1)!.api, api);
    }
    const wrong = await cli(['probe', '--base-url', sim.url, '--model', 'healthy', '--api', 'embeddings']);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--api: must be one of chat, completions, responses/);
  });

  it('a conformance probe on a completions and a responses target checks each in its own API', async () => {
    const file = join(tmp.dir, 'conformance.yaml');
    writeFileSync(
      file,
      `targets:
  - { name: base, baseUrl: "${sim.url}", model: healthy, api: completions }
  - { name: resp, baseUrl: "${sim.url}", model: reasoning, api: responses }
probes:
  - { name: check, kind: conformance, maxTokens: 64 }
`,
    );
    const before = sim.requests.length;
    const r = await cli(['probe', '--config', file, '--json', '--quiet']);
    assert.equal(r.code, 0, r.stderr + r.stdout.slice(0, 2000));
    const doc = JSON.parse(r.stdout) as {
      runs: { target: string; samples: { outcome: { checks: { check: string; status: string; reason: string }[] } }[] }[];
    };
    const checks = Object.fromEntries(
      doc.runs.map((run) => [
        run.target,
        Object.fromEntries(run.samples[0]!.outcome.checks.map((c) => [c.check, `${c.status} ${c.reason}`])),
      ]),
    );
    assert.equal(checks['base']!['tools'], 'skipped not_in_api');
    assert.equal(checks['base']!['reasoning'], 'skipped not_in_api');
    assert.equal(checks['resp']!['tools'], 'pass ok');
    assert.equal(checks['resp']!['reasoning'], 'pass ok');
    // the generation requests went to each target's own API
    assert.deepEqual([...new Set(sim.requests.slice(before).map((q) => q.api))].sort(), ['completions', 'responses']);
  });
});
