// `coherency-exporter probe` as a whole process against the built-in simulator on loopback:
// its exit codes, its report, --json and --save, and `analyze` re-judging a saved capture.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSimulator } from '../../src/simulator/index.js';
import { demoConfig } from '../helpers/demoConfig.js';
import { CLI, ensureBuilt, freePort, isListening, makeTempDir, runCommand } from '../helpers/integrationProcess.js';

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPENAI_') && !k.startsWith('COHERENCY_')));
const probe = (args: string[]) => runCommand(process.execPath, [CLI, 'probe', ...args], { timeoutMs: 30_000, env });

describe('probe command', { timeout: 120_000 }, () => {
  const tmp = makeTempDir('probe-cmd');
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let base = '';
  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    base = sim.url;
  });
  after(async () => {
    await sim?.close();
    tmp.remove();
  });

  it('a healthy stream exits 0, one line per sample start and end off a TTY', async () => {
    const r = await probe(['--base-url', base, '--model', 'healthy', '--max-tokens', '400']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /cli\/probe #0: OK \(400 tokens/);
    assert.match(r.stderr, /^start cli\/probe #0 \(max 400 tokens\)\nend {3}cli\/probe #0: OK/);
    assert.ok(!r.stderr.includes('\r') && !r.stderr.includes('\x1b['), 'no redraws off a TTY');
  });

  it('a collapse exits 1 with the reason and the loop with its onset', async () => {
    const r = await probe(['--base-url', base, '--model', 'collapse-sentence@300', '--max-tokens', '2000']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /FAIL/);
    assert.match(r.stdout, /sentence_loop/);
    assert.match(r.stdout, /from token \d+/);
  });

  it('a dead port exits 3; bad flags and configs exit 2 with one line', async () => {
    const dead = await probe(['--base-url', `http://127.0.0.1:${await freePort()}/v1`, '--model', 'healthy', '--max-tokens', '100']);
    assert.equal(dead.code, 3, dead.stderr);
    assert.match(dead.stdout, /ERROR.*\n.*connect/);
    for (const args of [
      ['--bogus'],
      ['--base-url', base, '--model', 'm', '--max-tokens', 'lots'],
      ['--model', 'm'],
      ['--base-url', base, '--model', 'm', '--fail-on', 'never'],
      ['--config', join(tmp.dir, 'none.yaml')],
    ]) {
      const bad = await probe(args);
      assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
      assert.match(bad.stderr, /^error: /);
    }
  });

  it('an HTTP 500 exits 3 and names the status; a fail among errors still exits 1', async () => {
    const r = await probe(['--base-url', base, '--model', 'fault-500', '--max-tokens', '100', '--json']);
    assert.equal(r.code, 3, r.stderr);
    const doc = JSON.parse(r.stdout) as { runs: { samples: { verdict: string; error?: { type: string; message: string } }[] }[] };
    const s = doc.runs[0]!.samples[0]!;
    assert.equal(s.verdict, 'error');
    assert.equal(s.error?.type, 'http_status');
    assert.match(s.error!.message, /^HTTP 500/);
    // two samples at once: one collapse is enough for exit 1, whatever else happened
    const two = await probe([
      '--base-url',
      base,
      '--model',
      'collapse-sentence@300',
      '--max-tokens',
      '2000',
      '--samples',
      '2',
      '--concurrency',
      '2',
    ]);
    assert.equal(two.code, 1, two.stderr);
    assert.equal((two.stdout.match(/FAIL/g) ?? []).length >= 2, true, two.stdout);
  });

  it('--save never writes the API key, even when the server echoes it in the stream', async () => {
    const KEY = 'sk-canary-echo-0123456789';
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const echo = `you sent ${req.headers.authorization ?? ''}. `;
        res.end(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: echo }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const dir = join(tmp.dir, 'echo');
      const r = await runCommand(
        process.execPath,
        [
          CLI,
          'probe',
          '--base-url',
          `http://127.0.0.1:${port}/v1`,
          '--model',
          'm',
          '--api-key-env',
          'ECHO_KEY',
          '--max-tokens',
          '50',
          '--save',
          dir,
          '--json',
        ],
        { timeoutMs: 30_000, env: { ...env, ECHO_KEY: KEY } },
      );
      assert.ok(r.code === 0 || r.code === 1, r.stderr);
      const where = join(dir, 'cli', 'probe', 'sample-0');
      const capture = readFileSync(join(where, 'capture.sse'), 'utf8');
      assert.match(capture, /you sent Bearer \[redacted\]/);
      for (const f of ['output.txt', 'result.json', 'capture.sse'])
        assert.ok(!readFileSync(join(where, f), 'utf8').includes(KEY), `${f} holds the key`);
      assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), 'the key in the command output');
    } finally {
      server.close();
    }
  });

  it('--fail-on warn turns a warning into exit 1 only then', async () => {
    // a short healthy text below minTokens is not a failure; exit codes follow the verdicts either way
    const r = await probe(['--base-url', base, '--model', 'healthy', '--max-tokens', '400', '--fail-on', 'warn', '--json']);
    const doc = JSON.parse(r.stdout) as { verdict: string; exitCode: number };
    assert.equal(r.code, doc.verdict === 'warn' || doc.verdict === 'fail' ? 1 : 0);
    assert.equal(doc.exitCode, r.code);
  });

  it('--json prints one document with every sample; --save writes the evidence and analyze re-judges the capture', async () => {
    const dir = join(tmp.dir, 'saved');
    const r = await probe([
      '--base-url',
      base,
      '--model',
      'collapse-sentence@300',
      '--max-tokens',
      '2000',
      '--samples',
      '2',
      '--json',
      '--save',
      dir,
    ]);
    assert.equal(r.code, 1, r.stderr);
    const doc = JSON.parse(r.stdout) as {
      verdict: string;
      runs: { target: string; probe: string; samples: { verdict: string; findings: unknown[] }[] }[];
    };
    assert.equal(doc.verdict, 'fail');
    // --json on stdout, and on stderr where the evidence went
    assert.ok(r.stderr.includes(`saved 2 samples under ${dir}/TARGET/PROBE/sample-N\n`), r.stderr);
    assert.equal(doc.runs.length, 1);
    assert.equal(doc.runs[0]!.samples.length, 2);
    for (const i of [0, 1]) {
      const where = join(dir, 'cli', 'probe', `sample-${i}`);
      for (const f of ['output.txt', 'result.json', 'capture.sse']) assert.ok(existsSync(join(where, f)), `${where}/${f}`);
      // no reasoning streamed: no empty reasoning.txt
      assert.equal(existsSync(join(where, 'reasoning.txt')), false, `${where}/reasoning.txt`);
      const saved = JSON.parse(readFileSync(join(where, 'result.json'), 'utf8')) as { verdict: string };
      assert.equal(saved.verdict, 'fail');
      assert.match(readFileSync(join(where, 'capture.sse'), 'utf8'), /^data: /);
      const again = await runCommand(process.execPath, [CLI, 'analyze', join(where, 'capture.sse'), '--json'], { timeoutMs: 30_000, env });
      assert.equal(again.code, 1, again.stderr);
      assert.equal((JSON.parse(again.stdout) as { verdict: string }).verdict, 'fail');
    }
  });

  it('from a config file: every target x probe, narrowed by --target/--probe; unknown names exit 2', async () => {
    const file = join(tmp.dir, 'c.yaml');
    writeFileSync(
      file,
      `targets:
  - { name: good, baseUrl: "${base}", model: healthy }
  - { name: bad, baseUrl: "${base}", model: "collapse-sentence@300", probes: [short] }
probes:
  - { name: short, prompt: hi, maxTokens: 300 }
  - { name: other, prompt: hi, maxTokens: 300 }
`,
    );
    const all = await probe(['--config', file, '--json', '--quiet']);
    const doc = JSON.parse(all.stdout) as { runs: { target: string; probe: string }[] };
    assert.deepEqual(
      doc.runs.map((x) => `${x.target}/${x.probe}`),
      ['good/short', 'good/other', 'bad/short'],
    );
    assert.equal(all.stderr, '');
    const good = await probe(['--config', file, '--target', 'good', '--probe', 'short']);
    assert.equal(good.code, 0, good.stderr);
    const unknown = await probe(['--config', file, '--target', 'nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--target nope: no such target/);
  });

  it('a config whose simulator is enabled (the demo) starts it for the run; a taken port is said in one line', async () => {
    const file = join(tmp.dir, 'demo.yaml');
    const simulatorPort = await freePort();
    writeFileSync(file, demoConfig({ simulatorPort, tokensPerSecond: 0 }));
    const r = await probe(['--config', file, '--target', 'sim-healthy', '--target', 'sim-collapse', '--probe', 'short']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /sim-healthy\/short #0: OK/);
    assert.match(r.stdout, /sim-collapse\/short #0: FAIL/);
    assert.doesNotMatch(r.stdout + r.stderr, /ECONNREFUSED|connect/);
    assert.equal(await isListening(simulatorPort), false, 'the simulator stopped with the probe');

    // something already listens there (the simulator of a running demo): the probe uses it and says so
    const other = await startSimulator({ host: '127.0.0.1', port: simulatorPort, tokensPerSecond: 0 });
    try {
      const taken = await probe(['--config', file, '--target', 'sim-healthy', '--probe', 'short']);
      assert.equal(taken.code, 0, taken.stderr);
      assert.match(
        taken.stderr,
        new RegExp(
          `^note: simulator\\.enabled: cannot listen on 127\\.0\\.0\\.1:${simulatorPort} \\(EADDRINUSE\\); probing whatever listens there`,
        ),
      );
    } finally {
      await other.close();
    }
  });
});
