import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { parseConfig } from '../../src/config/parseConfig.js';
import type { Config } from '../../src/config/types.js';

const T = '{name: local, baseUrl: "http://127.0.0.1:8000/v1", model: m}';
const P = '{name: short, prompt: hi, maxTokens: 100}';
const TARGETS = `targets:\n  - ${T}\n`;
const PROBES = `probes:\n  - ${P}\n`;
const BASE = TARGETS + PROBES;
/** A valid document with one target built from the given flow-mapping fields. */
const target = (fields: string): string => `targets:\n  - {name: local, model: m, baseUrl: "http://h/v1", ${fields}}\n${PROBES}`;
const probe = (fields: string): string => `${TARGETS}probes:\n  - {name: short, ${fields}}\n`;

/** Files the fake file system holds: path → why it cannot be used (null = readable). Others do not exist. */
type Files = Record<string, string | null>;

function fakeFiles(files: Files): (path: string) => string | null {
  return (path) => (path in files ? (files[path] ?? null) : 'does not exist');
}

function ok(yaml: string, env: Record<string, string> = {}, files: Files = {}): Config {
  const r = parseConfig(yaml, { env, checkFile: fakeFiles(files) });
  assert.ok(r.ok, `expected a valid config, got: ${r.ok ? '' : r.errors.join('\n')}`);
  return r.config;
}

function errors(yaml: string, env: Record<string, string> = {}, files: Files = {}): string[] {
  const r = parseConfig(yaml, { env, checkFile: fakeFiles(files) });
  assert.equal(r.ok, false, 'expected errors');
  return r.ok ? [] : r.errors;
}

const TOKEN = 'tok-0123456789abcdef';

// Broken documents, one per rule, are test/fixtures/config/invalid-*.yaml with their errors in invalidFixtures.test.ts.

describe('parseConfig: YAML syntax', () => {
  it('reports line and column, with the source in front', () => {
    const r = parseConfig('targets:\n  - name: a\n  - name: b\n name: c\n', { env: {}, source: 'cfg.yaml' });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.errors.length >= 1);
    assert.match(r.ok ? '' : (r.errors[0] ?? ''), /^cfg\.yaml: YAML syntax error at line 4, column 1: /);
  });

  it('refuses duplicate keys', () => {
    assert.deepEqual(errors(`${BASE}server: {port: 1, port: 2}\n`), ['YAML syntax error at line 5, column 19: Map keys must be unique']);
  });

  it('refuses several documents', () => {
    assert.deepEqual(errors(`${BASE}---\n${BASE}`), [
      'YAML syntax error at line 5, column 1: the file must hold a single YAML document (remove the extra ---)',
    ]);
  });

  it('treats an unknown tag as an error', () => {
    assert.deepEqual(errors(`server: {host: !secret x}\n${BASE}`), ['YAML syntax error at line 1, column 16: Unresolved tag: !secret']);
  });
});

describe('parseConfig: whole document', () => {
  it('reports every problem at once, in document order of sections', () => {
    const yaml = [
      'server: {port: 99999}',
      'targets:',
      '  - {name: Bad, baseUrl: "ftp://x", model: m, probes: [nope]}',
      'probes:',
      '  - {name: short, prompt: hi, maxTokens: -5, samples: 100}',
      '',
    ].join('\n');
    assert.deepEqual(errors(yaml), [
      'server.port: must be an integer from 0 to 65535',
      'targets[0].name: must match [a-z0-9_-]+',
      'targets[0].baseUrl: must be an http or https URL',
      'targets[0].probes[0]: unknown probe "nope" (known: short)',
      'probes[0].maxTokens: must be a positive integer',
      'probes[0].samples: must be an integer from 1 to 20',
    ]);
  });
});

describe('parseConfig: defaults and normalisation', () => {
  it('applies every default', () => {
    const c = ok(BASE);
    assert.deepEqual(c.server, DEFAULTS.server);
    assert.deepEqual(c.simulator, DEFAULTS.simulator);
    assert.deepEqual(c.metrics, DEFAULTS.metrics);
    assert.equal(c.metrics.detail, 'basic');
    assert.equal(ok(`metrics: {detail: full}\n${BASE}`).metrics.detail, 'full');
    assert.deepEqual(c.storage, { dir: 'data/runs', maxRuns: 500, maxBytes: 268435456, historySize: 200, historyMaxBytes: 67108864 });
    assert.deepEqual(c.server, {
      host: '127.0.0.1',
      port: 9464,
      authToken: null,
      metricsAuth: false,
      maxConcurrentManualRuns: 4,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    });
    assert.deepEqual(c.targets, [
      {
        name: 'local',
        baseUrl: 'http://127.0.0.1:8000/v1',
        model: 'm',
        api: 'chat',
        apiKeyEnv: null,
        apiKeyFile: null,
        headers: {},
        probes: ['short'],
        timeouts: { connectSeconds: 10, idleSeconds: 60, totalSeconds: 1800, slowSeconds: 60 },
        tls: { caFile: null, insecureSkipVerify: false },
        maxTokensField: null,
        omit: [],
        modelAliases: [],
        reasoning: null,
        fingerprintReads: true,
      },
    ]);
    assert.deepEqual(c.probes, [
      {
        name: 'short',
        schedule: null,
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 100,
        temperature: 0.6,
        samples: 1,
        minTokens: 0,
        thresholds: {},
        verdict: 'rules',
        verdictModel: null,
        timeouts: {},
        extraBody: {},
        abortOnCollapse: true,
        runOnStart: true,
        maxResponseBytes: null,
        temperatures: null,
        expect: null,
        logprobs: false,
      },
    ]);
  });

  it('treats empty (null) optional sections and keys as absent', () => {
    const c = ok(
      `server:\nsimulator:\nmetrics:\n${TARGETS}probes:\n  - {name: short, prompt: hi, maxTokens: 1, schedule: null, thresholds: null}\n`,
    );
    assert.deepEqual(c.server, DEFAULTS.server);
    assert.equal(c.probes[0]?.schedule, null);
  });

  it('removes trailing slashes from baseUrl', () => {
    const c = ok(`targets:\n  - {name: a, model: m, baseUrl: "https://api.example.com/v1/"}\n${PROBES}`);
    assert.equal(c.targets[0]?.baseUrl, 'https://api.example.com/v1');
  });

  it('defaults a target to every probe, in file order', () => {
    const c = ok(`${TARGETS}probes:\n  - {name: b, prompt: x, maxTokens: 1}\n  - {name: a, prompt: x, maxTokens: 1}\n`);
    assert.deepEqual(c.targets[0]?.probes, ['b', 'a']);
  });

  it('merges target timeouts over the defaults and keeps probe timeouts partial', () => {
    const c = ok(
      `targets:\n  - {name: a, model: m, baseUrl: "http://h", timeouts: {idleSeconds: 5}}\nprobes:\n  - {name: p, prompt: x, maxTokens: 1, timeouts: {totalSeconds: 90}}\n`,
    );
    assert.deepEqual(c.targets[0]?.timeouts, { connectSeconds: 10, idleSeconds: 5, totalSeconds: 1800, slowSeconds: 60 });
    assert.deepEqual(c.probes[0]?.timeouts, { totalSeconds: 90 });
  });

  it('accepts 5- and 6-field cron expressions', () => {
    const c = ok(
      `${TARGETS}probes:\n  - {name: a, prompt: x, maxTokens: 1, schedule: "*/30 * * * *"}\n  - {name: b, prompt: x, maxTokens: 1, schedule: "*/15 * * * * *"}\n`,
    );
    assert.deepEqual(
      c.probes.map((p) => p.schedule),
      ['*/30 * * * *', '*/15 * * * * *'],
    );
  });

  it('keeps messages, thresholds and extraBody', () => {
    const key = Object.keys(DEFAULT_THRESHOLDS)[0] as string;
    const c = ok(
      probe(
        `messages: [{role: system, content: s}, {role: user, content: u}], maxTokens: 10, minTokens: 10, thresholds: {${key}: 0.5}, extraBody: {top_p: 0.9, chat_template_kwargs: {enable_thinking: false}}`,
      ),
    );
    const p = c.probes[0];
    assert.deepEqual(p?.messages, [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
    ]);
    assert.deepEqual(p?.thresholds, { [key]: 0.5 });
    assert.deepEqual(p?.extraBody, { top_p: 0.9, chat_template_kwargs: { enable_thinking: false } });
    assert.equal(p?.minTokens, 10);
  });

  it('accepts every threshold name the analyzer declares', () => {
    const all = Object.keys(DEFAULT_THRESHOLDS)
      .map((k) => `${k}: 1`)
      .join(', ');
    const c = ok(probe(`prompt: x, maxTokens: 1, thresholds: {${all}}`));
    assert.deepEqual(Object.keys(c.probes[0]?.thresholds ?? {}), Object.keys(DEFAULT_THRESHOLDS));
  });

  it('keeps apiKeyEnv as a name when the variable is set, and headers as given', () => {
    const c = ok(target('apiKeyEnv: LOCAL_API_KEY, headers: {X-Team: infra}'), { LOCAL_API_KEY: 'k' });
    assert.equal(c.targets[0]?.apiKeyEnv, 'LOCAL_API_KEY');
    assert.deepEqual(c.targets[0]?.headers, { 'X-Team': 'infra' });
  });

  it('reports an empty apiKeyEnv variable', () => {
    assert.deepEqual(errors(target('apiKeyEnv: LOCAL_API_KEY'), { LOCAL_API_KEY: '' }), [
      'targets[0].apiKeyEnv: environment variable LOCAL_API_KEY is empty',
    ]);
  });
});

describe('parseConfig: auth, storage, key files, TLS', () => {
  it('reads server.authToken (trimmed) and the other server keys', () => {
    const c = ok(`server: {authToken: "  ${TOKEN} ", metricsAuth: true, maxConcurrentManualRuns: 10}\n${BASE}`);
    assert.deepEqual(c.server, {
      host: '127.0.0.1',
      port: 9464,
      authToken: TOKEN,
      metricsAuth: true,
      maxConcurrentManualRuns: 10,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    });
  });

  it('reads server.allowedHosts and server.trustProxy', () => {
    const c = ok(
      `server: {allowedHosts: [coherency.example.com, "*.svc.cluster.local", Box1.], trustProxy: [10.0.0.0/8, "::1", 127.0.0.1]}\n${BASE}`,
    );
    assert.deepEqual(c.server.allowedHosts, ['coherency.example.com', '*.svc.cluster.local', 'Box1.']);
    assert.deepEqual(c.server.trustProxy, ['10.0.0.0/8', '::1', '127.0.0.1']);
    assert.deepEqual(ok(`server: {allowedHosts: ["*"]}\n${BASE}`).server.allowedHosts, ['*']);
  });

  it('takes the token from COHERENCY_AUTH_TOKEN when the file has none', () => {
    assert.equal(ok(BASE, { COHERENCY_AUTH_TOKEN: `${TOKEN}\n` }).server.authToken, TOKEN);
    assert.equal(ok(`server: {authToken: null, metricsAuth: true}\n${BASE}`, { COHERENCY_AUTH_TOKEN: TOKEN }).server.metricsAuth, true);
  });

  it('lets the file value win over COHERENCY_AUTH_TOKEN (which is then not checked)', () => {
    const c = ok(`server: {authToken: "${TOKEN}"}\n${BASE}`, { COHERENCY_AUTH_TOKEN: 'short' });
    assert.equal(c.server.authToken, TOKEN);
  });

  it('reads storage', () => {
    const c = ok(
      `storage: {dir: /var/lib/coherency, maxRuns: 50, maxBytes: 1048576, historySize: 10000, historyMaxBytes: 1048576}\n${BASE}`,
    );
    assert.deepEqual(c.storage, {
      dir: '/var/lib/coherency',
      maxRuns: 50,
      maxBytes: 1048576,
      historySize: 10000,
      historyMaxBytes: 1048576,
    });
    assert.equal(ok(`storage: {historyMaxBytes: 17179869184}\n${BASE}`).storage.historyMaxBytes, 17179869184);
  });

  // Issue 39: runs are kept on disk by default; null, written out, is the memory-only switch.
  it('storage.dir: data/runs when absent, $COHERENCY_STORAGE_DIR over it, the file over both, null for memory only', () => {
    assert.equal(ok(BASE).storage.dir, 'data/runs');
    assert.equal(ok(`storage: {maxRuns: 5}\n${BASE}`).storage.dir, 'data/runs');
    assert.equal(ok(BASE, { COHERENCY_STORAGE_DIR: '/var/lib/coherency' }).storage.dir, '/var/lib/coherency');
    assert.equal(ok(BASE, { COHERENCY_STORAGE_DIR: ' ' }).storage.dir, 'data/runs', 'empty: unset');
    assert.equal(ok(`storage: {dir: /srv/runs}\n${BASE}`, { COHERENCY_STORAGE_DIR: '/var/lib/coherency' }).storage.dir, '/srv/runs');
    assert.equal(ok(`storage: {dir: null}\n${BASE}`).storage.dir, null);
    assert.equal(ok(`storage:\n  dir:\n${BASE}`).storage.dir, null, 'a YAML key with no value is null');
    assert.equal(ok(`storage: {dir: null}\n${BASE}`, { COHERENCY_STORAGE_DIR: '/var/lib/coherency' }).storage.dir, null);
  });

  it('refuses a $COHERENCY_STORAGE_DIR that cannot hold files, naming the variable', () => {
    const r = parseConfig(BASE, {
      env: { COHERENCY_STORAGE_DIR: '/ro/runs' },
      checkDir: (d) => (d === '/ro/runs' ? 'is on a read-only file system' : null),
    });
    assert.deepEqual(r.ok ? [] : r.errors, [
      'COHERENCY_STORAGE_DIR: "/ro/runs" is on a read-only file system (a config file\'s storage.dir wins over it; storage.dir: null keeps runs in memory only)',
    ]);
  });

  it('keeps apiKeyFile as a path and checks it at load', () => {
    const seen: string[] = [];
    const r = parseConfig(target('apiKeyFile: /run/secrets/vllm/api-key'), {
      env: {},
      checkFile: (path) => {
        seen.push(path);
        return null;
      },
    });
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    assert.equal(r.config.targets[0]?.apiKeyFile, '/run/secrets/vllm/api-key');
    assert.equal(r.config.targets[0]?.apiKeyEnv, null);
    assert.deepEqual(seen, ['/run/secrets/vllm/api-key']);
  });

  it('reads tls on an https target', () => {
    const c = ok(
      `targets:\n  - {name: a, model: m, baseUrl: "HTTPS://h/v1", tls: {caFile: /etc/ca.pem}}\n  - {name: b, model: m, baseUrl: "https://h/v1", tls: {insecureSkipVerify: true}}\n${PROBES}`,
      {},
      { '/etc/ca.pem': null },
    );
    assert.deepEqual(
      c.targets.map((t) => t.tls),
      [
        { caFile: '/etc/ca.pem', insecureSkipVerify: false },
        { caFile: null, insecureSkipVerify: true },
      ],
    );
  });

  it('reads abortOnCollapse', () => {
    assert.equal(ok(probe('prompt: hi, maxTokens: 1, abortOnCollapse: false')).probes[0]?.abortOnCollapse, false);
  });
});

describe('parseConfig: secrets', () => {
  const CANARY = 'sk-canary-7f3a9c0d1e';

  it('never puts an apiKeyEnv value in the config', () => {
    const c = ok(target('apiKeyEnv: LOCAL_API_KEY'), { LOCAL_API_KEY: CANARY });
    assert.ok(!JSON.stringify(c).includes(CANARY));
  });

  it('never echoes secret values in errors', () => {
    const yaml = [
      'targets:',
      `  - {name: "BAD", model: m, baseUrl: "https://user:${CANARY}@h/v1", apiKeyEnv: MISSING_KEY,`,
      `     headers: {Authorization: "Bearer ${CANARY}", X-Api-Key: "${CANARY}", "bad name": "${CANARY}"}}`,
      `  - {name: b, model: m, baseUrl: "https://h/v1?key=${CANARY}", api_key: "${CANARY}", apiKeyEnv: "${CANARY}"}`,
      'probes:',
      `  - {name: short, prompt: hi, maxTokens: 1, extraBody: {model: "${CANARY}"}}`,
      '',
    ].join('\n');
    const errs = errors(yaml, { OTHER: CANARY });
    assert.ok(errs.length >= 5, errs.join('\n'));
    for (const e of errs) assert.ok(!e.includes(CANARY), `secret leaked in: ${e}`);
  });

  it('never echoes an auth token or a key pasted where a path belongs', () => {
    const yaml = [
      `server: {authToken: "${CANARY} x", metricsAuth: true}`,
      'targets:',
      `  - {name: a, model: m, baseUrl: "http://h/v1", apiKeyFile: "${CANARY}", tls: {caFile: "${CANARY}"}}`,
      `  - {name: b, model: m, baseUrl: "https://h/v1", apiKeyEnv: K, apiKeyFile: "${CANARY}/x", tls: {caFile: "-----BEGIN CERTIFICATE-----\\n${CANARY}"}}`,
      PROBES,
    ].join('\n');
    const errs = errors(yaml, { K: CANARY });
    assert.ok(errs.length >= 6, errs.join('\n'));
    for (const e of errs) assert.ok(!e.includes(CANARY), `secret leaked in: ${e}`);

    for (const env of [{ COHERENCY_AUTH_TOKEN: `${CANARY} x` }, { COHERENCY_AUTH_TOKEN: 'sk-9' }]) {
      for (const e of errors(BASE, env)) assert.ok(!e.includes(env.COHERENCY_AUTH_TOKEN), `token leaked in: ${e}`);
    }
  });
});
