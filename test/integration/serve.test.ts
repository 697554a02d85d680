// The real CLI end to end (issue 2 "Done when", issue 5 shutdown): `serve --config F --port N`
// against simulators on loopback; /probe verdicts, the counters and gauges they move,
// `promtool check metrics`, SIGTERM during a long stream, and a config with two errors.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import {
  ensureBuilt,
  fetchText,
  RUN_PROBE,
  freePort,
  isListening,
  makeTempDir,
  parseExposition,
  requireTool,
  runCommand,
  sampleValue,
  startServe,
  waitFor,
  waitReady,
  type Child,
} from '../helpers/integrationProcess.js';

const PROBE = 'long';

function configYaml(fastUrl: string, slowUrl: string): string {
  return `targets:
  - name: healthy
    baseUrl: ${fastUrl}
    model: healthy
    probes: [${PROBE}]
  - name: collapse
    baseUrl: ${fastUrl}
    model: collapse-sentence@1200
    probes: [${PROBE}]
  - name: gateway
    baseUrl: ${fastUrl.replace(/\/v1$/, '/defect/model-renamed/v1')}
    model: healthy
    probes: [checklist]
  - name: forever
    baseUrl: ${slowUrl}
    model: fault-forever
    timeouts: { connectSeconds: 2, idleSeconds: 20, totalSeconds: 120 }
    probes: [${PROBE}]
probes:
  - name: checklist
    kind: conformance
    maxTokens: 100
  - name: ${PROBE}
    prompt: Write a detailed technical article about building a reliable job scheduler.
    maxTokens: 3000
    minTokens: 1000
`;
}

interface ProbeBody {
  target: string;
  probe: string;
  verdict: string;
  samples: { verdict: string; outputTokens: number }[];
  error?: { code: string; message: string };
}

describe('serve: the CLI against a loopback simulator', { timeout: 60_000 }, () => {
  let fast: Simulator | undefined;
  let slow: Simulator | undefined;
  let serve: Child | undefined;
  let base = '';
  const tmp = makeTempDir('serve');

  const metrics = async () => {
    const { status, body } = await fetchText(`${base}/metrics`);
    assert.equal(status, 200);
    return parseExposition(body);
  };
  const runs = (samples: ReturnType<typeof parseExposition>, target: string, verdict: string) =>
    sampleValue(samples, 'coherency_probe_samples_total', { target, probe: PROBE, verdict }) ?? 0;

  before(async () => {
    ensureBuilt();
    fast = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    // Slow enough that the endless stream is still in flight when SIGTERM arrives, and cheap.
    slow = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 100 });
    const file = join(tmp.dir, 'serve.yaml');
    writeFileSync(file, configYaml(fast.url, slow.url));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serve = startServe(['--config', file, '--port', String(port)]);
    await waitReady(serve, base);
  });

  after(async () => {
    await serve?.stop(2000);
    await fast?.close();
    await slow?.close();
    tmp.remove();
  });

  it('GET /probe on a healthy 3000-token stream answers ok and moves the ok counter and success gauge', async () => {
    const prior = await metrics();
    const { status, body } = await fetchText(`${base}/probe?target=healthy&probe=${PROBE}`, 30_000, RUN_PROBE);
    assert.equal(status, 200, body);
    const run = JSON.parse(body) as ProbeBody;
    assert.equal(run.target, 'healthy');
    assert.equal(run.probe, PROBE);
    assert.equal(run.verdict, 'ok', body.slice(0, 2000));
    assert.equal(run.samples.length, 1);
    assert.equal(run.samples[0]?.verdict, 'ok');
    assert.equal(run.samples[0]?.outputTokens, 3000);

    const now = await metrics();
    assert.equal(runs(now, 'healthy', 'ok'), runs(prior, 'healthy', 'ok') + 1);
    for (const verdict of ['warn', 'fail', 'error']) assert.equal(runs(now, 'healthy', verdict), runs(prior, 'healthy', verdict), verdict);
    assert.equal(sampleValue(now, 'coherency_probe_success', { target: 'healthy', probe: PROBE }), 1);
    const last = sampleValue(now, 'coherency_probe_last_run_timestamp_seconds', { target: 'healthy', probe: PROBE });
    assert.ok(last !== undefined && Math.abs(last - Date.now() / 1000) < 60, `last run timestamp ${String(last)}`);
  });

  it('GET /probe on a stream that collapses into a repeated sentence answers fail and moves the fail counter', async () => {
    const prior = await metrics();
    const { status, body } = await fetchText(`${base}/probe?target=collapse&probe=${PROBE}`, 30_000, RUN_PROBE);
    assert.equal(status, 200, body);
    const run = JSON.parse(body) as ProbeBody;
    assert.equal(run.verdict, 'fail', body.slice(0, 2000));
    assert.equal(run.samples[0]?.verdict, 'fail');

    const now = await metrics();
    assert.equal(runs(now, 'collapse', 'fail'), runs(prior, 'collapse', 'fail') + 1);
    assert.equal(runs(now, 'collapse', 'ok'), runs(prior, 'collapse', 'ok'));
    assert.equal(sampleValue(now, 'coherency_probe_success', { target: 'collapse', probe: PROBE }), 0);
    // The healthy target's figures are its own: the failing run did not touch them.
    assert.equal(sampleValue(now, 'coherency_probe_success', { target: 'healthy', probe: PROBE }), 1);
    const ratio = sampleValue(now, 'coherency_degeneration_ratio', { target: 'collapse', probe: PROBE });
    assert.ok(ratio !== undefined && ratio > 0, `degeneration ratio ${String(ratio)}`);
  });

  it('GET /probe for an unknown target or probe answers 404 naming the known ones; a missing parameter 400', async () => {
    const unknown = await fetchText(`${base}/probe?target=nope&probe=${PROBE}`);
    assert.equal(unknown.status, 404, unknown.body);
    const message = (JSON.parse(unknown.body) as ProbeBody).error?.message ?? '';
    for (const name of ['healthy', 'collapse', 'forever']) assert.match(message, new RegExp(`\\b${name}\\b`), message);

    const unknownProbe = await fetchText(`${base}/probe?target=healthy&probe=nope`);
    assert.equal(unknownProbe.status, 404, unknownProbe.body);
    assert.match((JSON.parse(unknownProbe.body) as ProbeBody).error?.message ?? '', new RegExp(`\\b${PROBE}\\b`), unknownProbe.body);

    const missing = await fetchText(`${base}/probe?target=healthy`);
    assert.equal(missing.status, 400, missing.body);
  });

  it('promtool check metrics finds no problem in /metrics (a failed conformance checklist among them)', async (t) => {
    const tool = requireTool('promtool');
    if (tool.skip !== null) return t.skip(tool.skip);
    const checklist = await fetchText(`${base}/probe?target=gateway&probe=checklist`, 30_000, RUN_PROBE);
    assert.equal((JSON.parse(checklist.body) as ProbeBody).verdict, 'fail', checklist.body.slice(0, 500));
    const { body } = await fetchText(`${base}/metrics`);
    assert.match(
      body,
      /^coherency_conformance_check_failure_info\{target="gateway",probe="checklist",check="models",reason="model_mismatch"\} 1$/m,
    );
    const result = await runCommand(tool.path, ['check', 'metrics'], { input: body });
    assert.equal(`${result.stdout}${result.stderr}`, '', 'promtool check metrics printed problems');
    assert.equal(result.code, 0);
  });

  // Last: it stops the server the tests above use.
  // fetch keeps its connection alive: the daemon must close such sockets itself at shutdown.
  it('SIGTERM during a long stream exits 0 within 10 s and closes the stream', async () => {
    assert.ok(serve && slow);
    const child = serve;
    const sim = slow;
    const abandon = new AbortController();
    // Not awaited: the run streams forever until the daemon aborts it.
    const inFlight = fetch(`${base}/probe?target=forever&probe=${PROBE}`, { ...RUN_PROBE, signal: abandon.signal }).then(
      (res) => res.text(),
      () => '',
    );
    try {
      const record = await waitFor('the endless stream to be under way', () =>
        sim.requests.find((r) => r.scenario === 'fault-forever' && r.tokensSent >= 20),
      );
      const started = Date.now();
      child.process.kill('SIGTERM');
      const exit = await Promise.race([child.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000).unref())]);
      const elapsed = Date.now() - started;
      assert.ok(exit, `still running 10 s after SIGTERM\nstderr:\n${child.stderr()}\nstdout:\n${child.stdout().slice(-3000)}`);
      assert.deepEqual(exit, { code: 0, signal: null }, `stderr:\n${child.stderr()}`);
      assert.ok(elapsed < 10_000, `exited after ${elapsed} ms`);
      await waitFor('the simulator to see the client go away', () => record.clientClosedAtToken !== null, { timeoutMs: 2000 });
      assert.equal(record.finished, false);
    } finally {
      abandon.abort();
      await inFlight;
    }
  });
});

describe('serve: a config with two errors', { timeout: 30_000 }, () => {
  const tmp = makeTempDir('serve-bad');
  after(() => tmp.remove());

  it('exits 2, lists both problems as "path: message" on stderr, and never listens', async () => {
    ensureBuilt();
    const file = join(tmp.dir, 'bad.yaml');
    writeFileSync(
      file,
      `targets:
  - name: Not A Name
    baseUrl: http://127.0.0.1:9/v1
    model: healthy
probes:
  - name: p
    prompt: hello
    maxTokens: -5
`,
    );
    const port = await freePort();
    const serve = startServe(['--config', file, '--port', String(port)]);
    try {
      const exit = await Promise.race([serve.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000).unref())]);
      assert.ok(exit, 'serve kept running with an invalid config');
      assert.deepEqual(exit, { code: 2, signal: null }, serve.stderr());
      const stderr = serve.stderr();
      assert.match(stderr, /^\s*targets\[0\]\.name: \S.*$/m, stderr);
      assert.match(stderr, /^\s*probes\[0\]\.maxTokens: \S.*$/m, stderr);
      assert.equal(await isListening(port), false, `something listens on ${port}`);
      assert.doesNotMatch(serve.stdout(), /listening/);
    } finally {
      await serve.stop(2000);
    }
  });
});
