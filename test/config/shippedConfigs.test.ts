import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULTS } from '../../src/config/defaults.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import { CONFIG_KEYS } from '../../src/config/validateConfig.js';

// From test/config (tsx) or dist/test/config (compiled) up to the repository root.
function read(path: string): string {
  const candidates = [new URL(`../../${path}`, import.meta.url), new URL(`../../../${path}`, import.meta.url)];
  const found = candidates.find((u) => existsSync(u));
  assert.ok(found, `${path} not found`);
  return readFileSync(found, 'utf8');
}

describe('config/coherency.yaml (npm start)', () => {
  const r = parseConfig(read('config/coherency.yaml'), { env: {}, source: 'config/coherency.yaml' });

  it('parses with no environment', () => {
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  });

  it('starts the simulator and probes its scenarios on fast schedules (recall, contamination and conformance once a minute)', () => {
    assert.ok(r.ok);
    const { simulator, targets, probes } = r.config;
    assert.equal(simulator.enabled, true);
    assert.deepEqual(
      targets.map((t) => [t.name, t.model, t.baseUrl]),
      [
        ['sim-healthy', 'healthy', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-collapse', 'collapse-sentence', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-whitespace', 'whitespace', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-greedy', 'collapse-greedy', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-offtopic', 'off-prompt', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-memory', 'echo-all', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-leaky', 'echo-previous', `http://${simulator.host}:${simulator.port}/v1`],
        ['sim-buffering-proxy', 'healthy', `http://${simulator.host}:${simulator.port}/defect/buffered/v1`],
        ['sim-golden', 'golden', `http://${simulator.host}:${simulator.port}/v1`],
      ],
    );
    assert.deepEqual(
      probes.map((p) => [p.name, p.kind ?? 'generation', p.schedule]),
      [
        ['short', 'generation', '*/15 * * * * *'],
        ['long', 'generation', '*/20 * * * * *'],
        ['sweep', 'generation', '*/30 * * * * *'],
        ['on-topic', 'generation', '*/30 * * * * *'],
        ['recall', 'recall', '5 * * * * *'],
        ['contamination', 'contamination', '35 * * * * *'],
        ['conformance', 'conformance', '50 * * * * *'],
        ['golden', 'golden', '20 * * * * *'],
      ],
    );
    // the generation scenarios run the generation probes, the context scenarios the recall and contamination ones
    assert.deepEqual(
      targets.map((t) => t.probes.join()),
      [
        'short,long,conformance',
        'short,long',
        'short,long',
        'sweep',
        'on-topic',
        'recall,contamination,on-topic',
        'recall,contamination',
        'conformance',
        'golden',
      ],
    );
    // A long probe at the simulator's rate must finish well inside its 20 s period.
    const long = probes[1];
    assert.ok(long && long.maxTokens / simulator.tokensPerSecond < 5);
  });
});

describe('config/example.yaml', () => {
  const text = read('config/example.yaml');

  it('parses with no environment', () => {
    const r = parseConfig(text, { env: {}, source: 'config/example.yaml' });
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  });

  it('documents every key', () => {
    for (const [section, keys] of Object.entries(CONFIG_KEYS)) {
      for (const key of keys) {
        assert.match(text, new RegExp(`(^|[\\s{,#-])${key}:`, 'm'), `${section}.${key} is not in config/example.yaml`);
      }
    }
  });

  it('states the defaults that DEFAULTS holds', () => {
    const stated = [
      `default ${DEFAULTS.server.host}`,
      `default ${DEFAULTS.server.port}`,
      `default ${DEFAULTS.simulator.port}`,
      `default ${DEFAULTS.simulator.tokensPerSecond}`,
      `default ${DEFAULTS.metrics.degenerationWindow}`,
      `default ${DEFAULTS.metrics.detail}`,
      `default ${DEFAULTS.target.timeouts.connectSeconds}`,
      `default ${DEFAULTS.target.timeouts.idleSeconds}`,
      `default ${DEFAULTS.target.timeouts.totalSeconds}`,
      `default ${DEFAULTS.probe.temperature}`,
      `default ${DEFAULTS.probe.samples}`,
      `default ${DEFAULTS.probe.minTokens}`,
      `default ${DEFAULTS.server.metricsAuth}`,
      `default ${DEFAULTS.server.maxConcurrentManualRuns}`,
      `default ${DEFAULTS.server.maxConcurrentSamples}`,
      `default ${DEFAULTS.storage.dir}`,
      `default ${DEFAULTS.storage.maxRuns}`,
      `default ${DEFAULTS.storage.maxBytes}`,
      `default ${DEFAULTS.storage.historySize}`,
      `default ${DEFAULTS.storage.historyMaxBytes}`,
      `default ${DEFAULTS.target.tls.insecureSkipVerify}`,
      `default ${DEFAULTS.probe.abortOnCollapse}`,
    ];
    for (const s of stated) assert.ok(text.includes(s), `config/example.yaml does not say "${s}"`);
  });
});
