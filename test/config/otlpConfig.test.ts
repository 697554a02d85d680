import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config/parseConfig.js';
import { redactConfig } from '../../src/config/redactConfig.js';
import type { Config } from '../../src/config/types.js';

const BASE = `targets: [{ name: t, baseUrl: "http://127.0.0.1:9/v1", model: m }]
probes: [{ name: p, prompt: hi, maxTokens: 10 }]
`;

function read(otlp: string | null, env: Record<string, string> = {}) {
  return parseConfig(`${otlp === null ? '' : `otlp: ${otlp}\n`}${BASE}`, { env, checkDir: () => null });
}

function ok(otlp: string | null, env: Record<string, string> = {}): Config['otlp'] {
  const r = read(otlp, env);
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  return r.config.otlp;
}

function errors(otlp: string | null, env: Record<string, string> = {}): string {
  const r = read(otlp, env);
  assert.equal(r.ok, false, 'expected a config error');
  return r.ok ? '' : r.errors.join('\n');
}

describe('otlp section', () => {
  it('is off by default, with the defaults', () => {
    const o = ok(null);
    assert.equal(o.logsUrl, null);
    assert.equal(o.metricsUrl, null);
    assert.deepEqual(o.headers, {});
    assert.equal(o.metrics, false);
    assert.equal(o.timeoutSeconds, 10);
    assert.equal(o.maxQueueSize, 2048);
    assert.equal(o.exportIntervalSeconds, 5);
    assert.equal(o.serviceName, 'coherency-exporter');
  });

  it('an endpoint gives the signal paths; metrics only when asked', () => {
    const o = ok('{ endpoint: "http://127.0.0.1:4318/", headers: { x-token: abc }, timeoutSeconds: 2, maxQueueSize: 10 }');
    assert.equal(o.logsUrl, 'http://127.0.0.1:4318/v1/logs');
    assert.equal(o.metricsUrl, null);
    assert.deepEqual(o.headers, { 'x-token': 'abc' });
    assert.equal(
      ok('{ endpoint: "https://collector.example/otlp", metrics: true }').metricsUrl,
      'https://collector.example/otlp/v1/metrics',
    );
  });

  it('bad values are errors naming the key, never echoing the value', () => {
    assert.match(errors('{ endpoint: "collector:4318" }'), /otlp\.endpoint: must be an http or https URL/);
    assert.match(errors('{ endpoint: "ftp://h" }'), /otlp\.endpoint/);
    const withCreds = errors('{ endpoint: "http://user:s3cr3t@h:4318" }');
    assert.match(withCreds, /otlp\.endpoint: must not contain credentials/);
    assert.ok(!withCreds.includes('s3cr3t'));
    assert.match(errors('{ endpoint: "http://h:4318?x=1" }'), /otlp\.endpoint: must not contain a query/);
    assert.match(errors('{ maxQueueSize: -1 }'), /otlp\.maxQueueSize/);
    assert.match(errors('{ maxQueueSize: 0 }'), /otlp\.maxQueueSize/);
    assert.match(errors('{ timeoutSeconds: 0 }'), /otlp\.timeoutSeconds: must be a positive number/);
    assert.match(errors('{ exportIntervalSeconds: -5 }'), /otlp\.exportIntervalSeconds/);
    assert.match(errors('{ metrics: yes please }'), /otlp\.metrics: must be true or false/);
    assert.match(errors('{ headers: { "bad header": x } }'), /otlp\.headers/);
    assert.match(errors('{ endpoints: "http://h" }'), /otlp\.endpoints/);
  });

  it('the standard variables apply when the file leaves the keys out', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20tok,x-tenant=a',
      OTEL_SERVICE_NAME: 'probe-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=ignored',
    };
    const o = ok(null, env);
    assert.equal(o.logsUrl, 'http://collector:4318/v1/logs');
    assert.equal(o.metricsUrl, null, 'metrics stay opt-in');
    assert.deepEqual(o.headers, { authorization: 'Bearer tok', 'x-tenant': 'a' });
    assert.equal(o.serviceName, 'probe-eu');
    assert.deepEqual(o.resourceAttributes, { 'deployment.environment': 'prod' });
    assert.equal(ok(null, { OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attrs' }).serviceName, 'from-attrs');
    // the per-signal variables are full URLs and win over the general one
    const split = ok('{ metrics: true }', {
      ...env,
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://logs:4318/custom/logs',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://metrics:4318/m',
    });
    assert.equal(split.logsUrl, 'http://logs:4318/custom/logs');
    assert.equal(split.metricsUrl, 'http://metrics:4318/m');
  });

  it('the file wins over the variables, and endpoint: null turns export off', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' };
    const o = ok('{ endpoint: "http://file:4318", headers: { c: d } }', env);
    assert.equal(o.logsUrl, 'http://file:4318/v1/logs');
    assert.deepEqual(o.headers, { c: 'd' });
    assert.equal(ok('{ endpoint: null }', env).logsUrl, null);
  });

  it('bad variables are errors naming the variable', () => {
    assert.match(errors(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }), /^OTEL_EXPORTER_OTLP_ENDPOINT: must be an http or https URL/m);
    assert.match(errors(null, { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'nope' }), /^OTEL_EXPORTER_OTLP_LOGS_ENDPOINT:/m);
    const h = errors(null, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_HEADERS: 'tokenwithoutequals-s3cr3t' });
    assert.match(h, /^OTEL_EXPORTER_OTLP_HEADERS: must be a comma-separated list of key=value pairs/m);
    assert.ok(!h.includes('s3cr3t'));
    assert.match(errors(null, { OTEL_RESOURCE_ATTRIBUTES: '=x' }), /^OTEL_RESOURCE_ATTRIBUTES:/m);
    // blank variables are unset
    assert.equal(ok(null, { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }).logsUrl, null);
  });

  it('every header value is redacted, whatever its name', () => {
    const r = read('{ endpoint: "http://h:4318", headers: { x-tenant: plain-value, authorization: Bearer abc } }');
    assert.ok(r.ok);
    const shown = JSON.stringify(redactConfig(r.config));
    assert.ok(!shown.includes('plain-value') && !shown.includes('Bearer abc'));
    assert.match(shown, /"x-tenant":"<redacted>"/);
  });
});
