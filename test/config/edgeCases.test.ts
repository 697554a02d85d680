import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConfig } from '../../src/config/parseConfig.js';

const probes = 'probes: [{ name: p, prompt: hi, maxTokens: 10 }]\n';

test('a key pasted into apiKeyEnv is never repeated in the error', () => {
  const key = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
  const r = parseConfig(`targets: [{ name: a, baseUrl: "http://h/v1", model: m, apiKeyEnv: ${key} }]\n${probes}`, { env: {} });
  assert.equal(r.ok, false);
  const errors = r.ok ? [] : r.errors;
  assert.match(errors.join('\n'), /targets\[0\]\.apiKeyEnv: the environment variable named here .* is not set/);
  assert.equal(errors.join('\n').includes(key), false);
  const named = parseConfig(`targets: [{ name: a, baseUrl: "http://h/v1", model: m, apiKeyEnv: VLLM_KEY }]\n${probes}`, { env: {} });
  assert.deepEqual(named.ok ? [] : named.errors, ['targets[0].apiKeyEnv: environment variable VLLM_KEY is not set']);
});

test('header values an HTTP client would refuse are refused at load', () => {
  const r = parseConfig(
    `targets: [{ name: a, baseUrl: "http://h/v1", model: m, headers: { X-A: "€uro", X-B: "a\\x01b", X-C: "café ok" } }]\n${probes}`,
    { env: {} },
  );
  assert.equal(r.ok, false);
  const errors = r.ok ? [] : r.errors;
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0]!, /^targets\[0\]\.headers\.X-A: must contain only printable ASCII or Latin-1/);
  assert.match(errors[1]!, /^targets\[0\]\.headers\.X-B: /);
});

test('YAML merge keys share a block between targets', () => {
  const r = parseConfig(
    `targets:\n  - &base { name: a, baseUrl: "http://h/v1", model: m, timeouts: { idleSeconds: 5 } }\n  - { <<: *base, name: b }\n${probes}`,
    { env: {} },
  );
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  assert.equal(r.config.targets[1]!.name, 'b');
  assert.equal(r.config.targets[1]!.baseUrl, 'http://h/v1');
  assert.equal(r.config.targets[1]!.timeouts.idleSeconds, 5);
});

test('extraBody fields named like Object properties are plain fields; __proto__ is refused', () => {
  const ok = parseConfig(
    `targets: [{ name: a, baseUrl: "http://h/v1", model: m }]\nprobes: [{ name: p, prompt: hi, maxTokens: 10, extraBody: { constructor: 1, toString: x } }]\n`,
    { env: {} },
  );
  assert.ok(ok.ok, ok.ok ? '' : ok.errors.join('\n'));
  assert.equal(ok.config.probes[0]!.extraBody['constructor'], 1);
  const bad = parseConfig(
    `targets: [{ name: a, baseUrl: "http://h/v1", model: m }]\nprobes: [{ name: p, prompt: hi, maxTokens: 10, extraBody: { __proto__: { x: 1 } } }]\n`,
    { env: {} },
  );
  assert.equal(bad.ok, false);
});

test('a storage.dir on a kernel file system (/proc, /sys) is a config error, not a store that hangs', () => {
  for (const dir of ['/proc/runs', '/sys/kernel/runs', '/proc']) {
    const r = parseConfig(`storage: { dir: ${dir} }\ntargets: [{ name: a, baseUrl: "http://h/v1", model: m }]\n${probes}`, { env: {} });
    assert.equal(r.ok, false, dir);
    assert.match(
      r.ok ? '' : r.errors.join('\n'),
      /^storage\.dir: "\/(proc|sys)[^"]*" is under \/(proc|sys), a kernel file system that cannot keep files$/,
    );
  }
});
