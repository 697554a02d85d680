import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { streamChat } from '../../src/client/streamChat.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { silentLogger, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';

// Each fault of issue 4, as the daemon meets it: the sample ends in `error` with the right
// type within its timeout, the error is counted, and a healthy probe right after is ok.
const FAULTS: [model: string, type: string][] = [
  ['fault-stall@50', 'timeout_idle'],
  ['fault-cut@50', 'truncated'],
  ['fault-500', 'http_status'],
  ['fault-401', 'http_status'],
  ['fault-429', 'http_status'],
  ['fault-garbage@50', 'malformed'],
  ['fault-error-event@50', 'server_error_event'],
  ['fault-html', 'not_streaming'],
  ['fault-forever', 'timeout_total'],
];
// A JSON chat completion instead of a stream is analysed anyway, with the reason noted.

describe('faults end in a typed error and the next probe goes ahead', () => {
  let sim: Simulator;
  let service: ProbeService;
  let registry: Registry;

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 2000 });
    const timeouts = { connectSeconds: 2, idleSeconds: 0.5, totalSeconds: 2 };
    const config = testConfig({
      targets: [
        ...FAULTS.map(([model], i) => testTarget({ name: `f${i}`, baseUrl: sim.url, model, timeouts, probes: ['p'] })),
        testTarget({ name: 'healthy', baseUrl: sim.url, model: 'healthy', timeouts, probes: ['p'] }),
        testTarget({ name: 'json', baseUrl: sim.url, model: 'fault-json', timeouts, probes: ['p'] }),
        testTarget({ name: 'refused', baseUrl: 'http://127.0.0.1:9/v1', model: 'x', timeouts, probes: ['p'] }),
      ],
      probes: [testProbe({ name: 'p', maxTokens: 600 })],
    });
    registry = new Registry();
    service = new ProbeService({
      config,
      probe: { stream: streamChat, env: {}, now: Date.now, logger: silentLogger, newId: () => Math.random().toString(36).slice(2) },
      metrics: createMetrics(registry, { version: 't', defaultMetrics: false }),
      history: new RunHistory({ maxRuns: 50, maxBytes: 64 * 1024 * 1024 }),
      logger: silentLogger,
    });
  });
  after(() => sim.close());

  const errorsOf = async (target: string, type: string) =>
    (await registry.getSingleMetric('coherency_probe_errors_total')!.get()).values.find(
      (v) => v.labels['target'] === target && v.labels['type'] === type,
    )?.value ?? 0;

  test('fault-json: a non-streamed chat completion is analysed, with the reason noted', async () => {
    const run = await service.run('json', 'p', 'manual');
    const s = run.samples[0]!;
    assert.equal(s.error?.type, 'not_streaming');
    assert.equal(s.verdict, 'ok', s.reasons.join('; '));
    assert.equal(s.metrics?.content.chars, s.contentChars, 'the analysis covers the whole body');
    assert.ok(s.contentChars > 1000);
    assert.match(s.reasons[0]!, /^not_streaming: .*analysed anyway/);
  });

  for (const [i, [model, type]] of [...FAULTS, ['(refused port)', 'connect'] as [string, string]].entries()) {
    test(`${model} → ${type}, then a healthy probe is ok`, async () => {
      const target = model === '(refused port)' ? 'refused' : `f${i}`;
      const t0 = Date.now();
      const run = await service.run(target, 'p', 'manual');
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'error', s.reasons.join('; '));
      assert.equal(s.error?.type, type, s.reasons.join('; '));
      assert.ok(Date.now() - t0 < 4000, 'ended within its timeouts');
      assert.equal(await errorsOf(target, type), 1);
      if (model === 'fault-401') assert.match(s.error!.message, /auth/);
      if (model === 'fault-429') assert.match(s.error!.message, /rate limit/);
      const next = await service.run('healthy', 'p', 'manual');
      assert.equal(next.verdict, 'ok', next.samples[0]!.reasons.join('; '));
    });
  }
});
