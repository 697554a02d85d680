import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { bearerMatches } from '../../src/http/bearerAuth.js';
import { buildApp } from '../../src/http/buildApp.js';
import { createMetrics } from '../../src/metrics/createMetrics.js';
import { ProbeService } from '../../src/scheduler/probeService.js';
import { RunHistory } from '../../src/state/runHistory.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { silentLogger, testConfig } from '../helpers/testConfig.js';

test('bearerMatches wants exactly "Bearer <token>"', () => {
  assert.equal(bearerMatches('Bearer s3cret-token-123456', 's3cret-token-123456'), true);
  assert.equal(bearerMatches('Bearer s3cret-token-12345', 's3cret-token-123456'), false);
  assert.equal(bearerMatches('s3cret-token-123456', 's3cret-token-123456'), false);
  assert.equal(bearerMatches('Basic s3cret-token-123456', 's3cret-token-123456'), false);
  assert.equal(bearerMatches(undefined, 's3cret-token-123456'), false);
});

test('metricsAuth puts /metrics behind the token; health stays open', async () => {
  const config = testConfig();
  config.server = { ...config.server, authToken: 'metrics-token-0123456789', metricsAuth: true };
  const registry = new Registry();
  const metrics = createMetrics(registry, { version: 't', defaultMetrics: false });
  const history = new RunHistory(5);
  const service = new ProbeService({
    config,
    probe: { stream: fakeStream({}).fn, env: {}, now: Date.now, logger: silentLogger, newId: () => 'i' },
    metrics,
    history,
    logger: silentLogger,
  });
  const app = buildApp({ service, registry, history, logger: silentLogger, version: 't', isReady: () => true });
  const denied = await app.inject('/metrics');
  assert.equal(denied.statusCode, 401);
  assert.equal(denied.headers['www-authenticate'], 'Bearer realm="coherency-exporter"');
  assert.equal((await app.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-0123456789' } })).statusCode, 200);
  assert.equal((await app.inject('/-/healthy')).statusCode, 200);
  assert.equal((await app.inject('/-/ready')).statusCode, 200);
  assert.equal((await app.inject('/runs/x')).statusCode, 401);
});
