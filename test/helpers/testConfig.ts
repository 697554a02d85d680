import { pino } from 'pino';
import { DEFAULTS } from '../../src/config/defaults.js';
import type { Config, ProbeConfig, TargetConfig } from '../../src/config/types.js';
import { OTLP_OFF } from '../../src/config/otlpConfig.js';
import { errorSample } from '../../src/probe/judgeSample.js';
import type { RunResult, SampleResult } from '../../src/probe/probeTypes.js';
import type { StreamResult } from '../../src/client/streamTypes.js';

export const silentLogger = pino({ level: 'silent' });

export function testTarget(over: Partial<TargetConfig> = {}): TargetConfig {
  return {
    name: 'local',
    baseUrl: 'http://127.0.0.1:1/v1',
    model: 'healthy',
    api: 'chat',
    apiKeyEnv: null,
    apiKeyFile: null,
    headers: {},
    probes: ['short', 'long'],
    timeouts: { connectSeconds: 2, idleSeconds: 5, totalSeconds: 30 },
    tls: { caFile: null, insecureSkipVerify: false },
    maxTokensField: null,
    omit: [],
    modelAliases: [],
    reasoning: null,
    fingerprintReads: true,
    ...over,
  };
}

export function testProbe(over: Partial<ProbeConfig> = {}): ProbeConfig {
  return {
    ...DEFAULTS.probe,
    name: 'short',
    messages: [{ role: 'user', content: 'Write a long article about databases.' }],
    maxTokens: 3000,
    thresholds: {},
    timeouts: {},
    extraBody: {},
    ...over,
  };
}

export function testConfig(over: Partial<Config> = {}): Config {
  return {
    server: { ...DEFAULTS.server, port: 0, trustProxy: [] },
    simulator: { enabled: false, host: '127.0.0.1', port: 0, tokensPerSecond: 0 },
    metrics: { degenerationWindow: 20, detail: 'basic' },
    storage: { dir: null, maxRuns: 500, maxBytes: 268435456, historySize: 200, historyMaxBytes: 67108864 },
    otlp: OTLP_OFF,
    targets: [testTarget()],
    probes: [testProbe(), testProbe({ name: 'long', maxTokens: 8000, minTokens: 1500 })],
    ...over,
  };
}

/** A finished stream as the client would report it. */
export function streamResult(over: Partial<StreamResult> = {}): StreamResult {
  const content = over.content ?? '';
  return {
    content,
    reasoning: '',
    finishReason: 'length',
    stopReason: null,
    outputTokens: Math.ceil(content.length / 4),
    outputTokensSource: 'usage',
    promptTokens: 20,
    ttftSeconds: 0.05,
    ttfcSeconds: 0.05,
    durationSeconds: 2,
    chunks: Math.ceil(content.length / 4),
    maxGapSeconds: 0.01,
    endedCleanly: true,
    httpStatus: 200,
    error: null,
    ...over,
  };
}

/** A finished run of target t, probe p, with the given samples (only the fields a test sets). */
export function testRun(id: string, samples: Array<Partial<RunResult['samples'][number]>>, over: Partial<RunResult> = {}): RunResult {
  return {
    id,
    target: 't',
    probe: 'p',
    verdict: 'fail',
    trigger: 'schedule',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationSeconds: 1,
    samples: samples as RunResult['samples'],
    ...over,
  };
}

/** A whole sample (errorSample's fields, then a healthy answer's), with the fields a test sets. */
export function testSample(over: Partial<SampleResult> = {}): SampleResult {
  const content = over.content ?? 'The output of the model.';
  return {
    ...errorSample(0, 'internal', ''),
    verdict: 'ok',
    reasons: [],
    error: null,
    outputTokens: 5,
    finishReason: 'stop',
    durationSeconds: 1,
    content,
    contentChars: content.length,
    ...over,
  };
}
