/**
 * The OpenTelemetry export end to end: a daemon probing the simulator sends its verdicts and
 * client metrics to a loopback OTLP/HTTP receiver that decodes them; with the collector down, a
 * black hole or failing, probes take the time they take without it and the drops are counted.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/parseConfig.js';
import { type Daemon, startDaemon } from '../../src/daemon.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { VERSION } from '../../src/version.js';
import { silentLogger } from '../helpers/testConfig.js';
import { type OtlpReceiver, startOtlpReceiver } from '../helpers/otlpReceiver.js';
import { requireTool, runCommand } from '../helpers/integrationProcess.js';

const TOKEN = 'otel-test-auth-token-0123456789';
const KEY = 'sk-otel-canary-3b9e71d2c4a8';
const HEADER_SECRET = 'hdr-otel-canary-55c0ffee';
const PROMPT_SECRET = 'prompt-canary-q7w8e9';
const COLLECTOR_TOKEN = 'collector-canary-a1b2c3';
const env = { OTEL_KEY: KEY };

function configText(simUrl: string, otlp: string): string {
  return `
server: { host: 127.0.0.1, port: 0, authToken: ${TOKEN} }
storage: { dir: null }
otlp: ${otlp}
targets:
  - { name: good, baseUrl: ${simUrl}, model: healthy, apiKeyEnv: OTEL_KEY, headers: { x-extra: ${HEADER_SECRET} }, probes: [p] }
  - { name: bad, baseUrl: ${simUrl}, model: "collapse-sentence@200", apiKeyEnv: OTEL_KEY, probes: [p] }
probes:
  - { name: p, prompt: "Write a long article about storage engines. ${PROMPT_SECRET}", maxTokens: 600, minTokens: 0, samples: 2, runOnStart: false }
`;
}

async function daemonWith(simUrl: string, otlp: string): Promise<Daemon> {
  const parsed = parseConfig(configText(simUrl, otlp), { env, checkDir: () => null });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
  return startDaemon({ config: parsed.config, configPath: null, logger: silentLogger, env });
}

type Run = { id: string; verdict: string; durationSeconds: number; samples: { findings: unknown[] }[] };

async function probe(daemon: Daemon, target: string): Promise<{ run: Run; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${daemon.url}/probe?target=${target}&probe=p`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const run = (await res.json()) as Run;
  assert.equal(res.status, 200, JSON.stringify(run));
  return { run, ms: performance.now() - t0 };
}

/** The value of one series of /metrics, 0 when absent. */
async function series(daemon: Daemon, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${daemon.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

describe('otlp export to a loopback receiver', { timeout: 60_000 }, () => {
  let sim: Simulator;
  let receiver: OtlpReceiver;
  let daemon: Daemon;
  const runs: Run[] = [];

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
    receiver = await startOtlpReceiver();
    daemon = await daemonWith(
      sim.url,
      `{ endpoint: "${receiver.url}", headers: { authorization: "Bearer ${COLLECTOR_TOKEN}" }, metrics: true, exportIntervalSeconds: 0.2, timeoutSeconds: 2 }`,
    );
    runs.push((await probe(daemon, 'good')).run, (await probe(daemon, 'bad')).run);
  });

  after(async () => {
    await daemon?.close();
    await receiver?.close();
    await sim?.close();
  });

  test('one evaluation event per sample, with the GenAI attributes, the run and the resource', async () => {
    await until(
      'the sample events',
      () => receiver.events().filter((e) => e.attributes['coherency.finding.kind'] === undefined).length >= 4,
    );
    const events = receiver.events();
    for (const e of events) assert.equal(e.eventName, 'gen_ai.evaluation.result');
    for (const run of runs) {
      const own = events.filter((e) => e.attributes['coherency.run_id'] === run.id);
      const perSample = own.filter((e) => e.attributes['coherency.finding.kind'] === undefined);
      assert.equal(perSample.length, run.samples.length, 'one event per sample');
      assert.equal(
        own.length - perSample.length,
        run.samples.reduce((n, s) => n + s.findings.length, 0),
        'one more per finding',
      );
      for (const e of perSample) {
        const a = e.attributes;
        assert.equal(a['gen_ai.evaluation.name'], 'generation');
        assert.ok(['ok', 'warn', 'fail'].includes(String(a['gen_ai.evaluation.score.label'])));
        assert.match(String(a['gen_ai.evaluation.explanation']), new RegExp(`/runs/${run.id}`));
        assert.equal(a['gen_ai.operation.name'], 'chat');
        assert.equal(a['gen_ai.provider.name'], 'openai');
        assert.equal(a['server.address'], '127.0.0.1');
        assert.equal(a['server.port'], Number(new URL(sim.url).port));
        assert.equal(a['coherency.target'], run.id === runs[0]?.id ? 'good' : 'bad');
        assert.equal(typeof a['gen_ai.response.model'], 'string');
        assert.equal(e.resource['service.name'], 'coherency-exporter');
        assert.equal(e.resource['service.version'], VERSION);
      }
    }
    const bad = events.filter((e) => e.attributes['coherency.target'] === 'bad');
    assert.ok(bad.some((e) => e.attributes['gen_ai.evaluation.score.label'] === 'fail'));
    const findings = bad.filter((e) => e.attributes['coherency.finding.kind'] !== undefined);
    assert.ok(findings.length > 0, 'the collapse has findings');
    assert.ok(
      findings.every((e) => typeof e.attributes['gen_ai.evaluation.name'] === 'string' && e.attributes['gen_ai.evaluation.name'] !== ''),
    );
    assert.ok(
      findings.some((e) => typeof e.attributes['coherency.onset_token'] === 'number'),
      'a finding says where it starts',
    );
    assert.equal(receiver.headers[0]?.authorization, `Bearer ${COLLECTOR_TOKEN}`, 'the collector header is sent');
  });

  test('the four client metrics under their convention names, with buckets past 81.92 s', async () => {
    const names = [
      'gen_ai.client.operation.duration',
      'gen_ai.client.token.usage',
      'gen_ai.client.operation.time_to_first_chunk',
      'gen_ai.client.operation.time_per_output_chunk',
    ];
    await until('the client metrics', () => names.every((n) => receiver.metrics().some((m) => m.name === n && m.points.length > 0)));
    const metrics = receiver.metrics();
    const last = (name: string) => metrics.filter((m) => m.name === name).at(-1);
    assert.equal(last('gen_ai.client.operation.duration')?.unit, 's');
    assert.equal(last('gen_ai.client.token.usage')?.unit, '{token}');
    const duration = last('gen_ai.client.operation.duration');
    assert.equal(
      duration?.points.reduce((n, p) => n + p.count, 0),
      4,
      'four requests',
    );
    assert.equal(duration?.points[0]?.bounds.at(-1), 2621.44);
    assert.ok(duration?.points[0]?.bounds.includes(81.92));
    const types = new Set(last('gen_ai.client.token.usage')?.points.map((p) => p.attributes['gen_ai.token.type']));
    assert.deepEqual([...types].sort(), ['input', 'output']);
    for (const p of duration?.points ?? []) {
      // a collapsed answer closed early by the daemon ended aborted: error.type says so
      if (p.attributes['error.type'] !== undefined) assert.equal(p.attributes['error.type'], 'aborted');
      const { 'error.type': _, ...attributes } = p.attributes;
      assert.deepEqual(Object.keys(attributes).sort(), [
        'coherency.target',
        'gen_ai.operation.name',
        'gen_ai.provider.name',
        'gen_ai.request.model',
        'server.address',
        'server.port',
      ]);
    }
  });

  test('/metrics counts what was exported, and nothing dropped', async () => {
    await until('the exported counter', async () => (await series(daemon, 'coherency_otlp_exported_records_total', 'signal="logs"')) >= 4);
    assert.equal(await series(daemon, 'coherency_otlp_dropped_records_total', 'signal="logs",reason="queue_full"'), 0);
    assert.equal(await series(daemon, 'coherency_otlp_dropped_records_total', 'signal="logs",reason="export_failed"'), 0);
    // the new series pass promtool's lint (names, HELP, counters)
    const tool = requireTool('promtool');
    if (tool.skip === null) {
      const body = await (await fetch(`${daemon.url}/metrics`)).text();
      assert.ok(body.includes('coherency_otlp_dropped_records_total{'));
      const result = await runCommand(tool.path, ['check', 'metrics'], { input: body });
      assert.equal(`${result.stdout}${result.stderr}`, '', 'promtool check metrics printed problems');
    }
  });

  test('no API key, header value, prompt or auth token anywhere in what the receiver got', () => {
    const all = receiver.bodies.join('\n');
    assert.ok(all.length > 1000);
    for (const secret of [KEY, HEADER_SECRET, PROMPT_SECRET, TOKEN, COLLECTOR_TOKEN]) assert.ok(!all.includes(secret), secret);
  });
});

describe('export off: no otlp series, so CoherencyOtlpExportDropping has nothing to fire on', { timeout: 30_000 }, () => {
  let sim: Simulator;
  let daemon: Daemon;

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
    daemon = await daemonWith(sim.url, '{}');
  });
  after(async () => {
    await daemon?.close();
    await sim?.close();
  });

  test("/metrics has the two counters' HELP and not one sample of them, before and after a run", async () => {
    // deploy/prometheus/rules.yml's alert reads the dropped counter only: absent, it cannot fire
    // (rules.test.yml: "with export off"); the daemon sets them to 0 only when it exports.
    for (const when of ['at start', 'after a run']) {
      if (when === 'after a run') await probe(daemon, 'good');
      const lines = (await (await fetch(`${daemon.url}/metrics`)).text()).split('\n');
      for (const name of ['coherency_otlp_exported_records_total', 'coherency_otlp_dropped_records_total']) {
        assert.ok(lines.includes(`# TYPE ${name} counter`), `${when}: ${name} not registered`);
        const samples = lines.filter((l) => l.startsWith(name));
        assert.deepEqual(samples, [], `${when}: ${name} has samples with export off`);
      }
    }
  });
});

describe('a collector that is down, silent or failing never slows a probe', { timeout: 90_000 }, () => {
  let sim: Simulator;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    // paced, so that a run takes long enough to compare (~0.3 s a sample)
    sim = await startSimulator({ tokensPerSecond: 2000 });
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    await sim?.close();
  });

  /** Median ms of three runs of `good` and `bad` on a daemon with this otlp section. */
  async function timed(otlp: string): Promise<{ daemon: Daemon; ms: number }> {
    const daemon = await daemonWith(sim.url, otlp);
    closers.push(() => daemon.close());
    const times: number[] = [];
    for (let i = 0; i < 3; i++) for (const t of ['good', 'bad']) times.push((await probe(daemon, t)).ms);
    return { daemon, ms: median(times) };
  }

  test('closed port, black hole and 500: same probe time as without export; drops counted; close is bounded', async () => {
    const off = await timed('{}');
    const closedPort = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const hole = await startOtlpReceiver('blackhole');
    const failing = await startOtlpReceiver('fail');
    closers.push(
      () => hole.close(),
      () => failing.close(),
    );
    const common = 'metrics: true, exportIntervalSeconds: 0.1, timeoutSeconds: 0.5';
    const down = await timed(`{ endpoint: "http://127.0.0.1:${closedPort}", ${common} }`);
    const black = await timed(`{ endpoint: "${hole.url}", maxQueueSize: 3, ${common} }`);
    const five = await timed(`{ endpoint: "${failing.url}", ${common} }`);
    const figures = { off: off.ms, down: down.ms, blackhole: black.ms, fail500: five.ms };
    console.log(`probe ms (median of 6): ${JSON.stringify(figures)}`);
    for (const [name, ms] of Object.entries(figures)) assert.ok(ms < off.ms * 1.5 + 150, `${name}: ${ms} ms against ${off.ms} ms`);

    const failed = (d: Daemon) => series(d, 'coherency_otlp_dropped_records_total', 'signal="logs",reason="export_failed"');
    await until('drops at the closed port', async () => (await failed(down.daemon)) > 0);
    await until('drops at the 500', async () => (await failed(five.daemon)) > 0);
    await until('drops at the black hole', async () => (await failed(black.daemon)) > 0);
    assert.ok(
      (await series(black.daemon, 'coherency_otlp_dropped_records_total', 'signal="logs",reason="queue_full"')) > 0,
      'queue of 3 overflowed',
    );
    await until(
      'metric drops at the 500',
      async () => (await series(five.daemon, 'coherency_otlp_dropped_records_total', 'signal="metrics",reason="export_failed"')) > 0,
    );
    assert.equal(await series(five.daemon, 'coherency_otlp_exported_records_total', 'signal="logs"'), 0);

    const healthy = performance.now();
    assert.equal((await fetch(`${black.daemon.url}/-/healthy`)).status, 200);
    assert.ok(performance.now() - healthy < 500, '/-/healthy answers at once');

    // the black hole holds an export open: close waits at most about two export timeouts
    const t0 = performance.now();
    await black.daemon.close();
    assert.ok(performance.now() - t0 < 3000, `close took ${performance.now() - t0} ms`);
  });
});
