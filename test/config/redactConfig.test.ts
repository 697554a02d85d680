import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config/parseConfig.js';
import { REDACTED, redactConfig } from '../../src/config/redactConfig.js';

const CANARY = 'sk-canary-4b1d2e9f';

const YAML = `
server:
  authToken: "${CANARY}-auth-token"
targets:
  - name: a
    baseUrl: https://h/v1
    model: m
    headers:
      Authorization: "Bearer ${CANARY}"
      api-key: "${CANARY}"
      X-API-Key: "${CANARY}"
      X-Auth-Token: "${CANARY}"
      X-Client-Secret: "${CANARY}"
      X-Custom: "Basic ${CANARY}"
      X-Team: infra
  - name: b
    baseUrl: https://h/v1
    model: m
    apiKeyEnv: B_API_KEY
  - name: c
    baseUrl: https://h/v1
    model: m
    apiKeyFile: /run/secrets/c/api-key
probes:
  - name: p
    prompt: hi
    maxTokens: 10
    extraBody: {api_key: "${CANARY}", min_tokens: 5, skip_special_tokens: true, nested: {password: "${CANARY}"}}
`;

describe('redactConfig', () => {
  const parsed = parseConfig(YAML, { env: { B_API_KEY: CANARY }, checkFile: () => null });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
  const config = parsed.config;
  const redacted = redactConfig(config);

  it('masks every credential-looking header and body field', () => {
    assert.ok(!JSON.stringify(redacted).includes(CANARY));
    assert.deepEqual(redacted.targets[0]?.headers, {
      Authorization: REDACTED,
      'api-key': REDACTED,
      'X-API-Key': REDACTED,
      'X-Auth-Token': REDACTED,
      'X-Client-Secret': REDACTED,
      'X-Custom': REDACTED,
      'X-Team': 'infra',
    });
    assert.deepEqual(redacted.probes[0]?.extraBody, {
      api_key: REDACTED,
      min_tokens: 5,
      skip_special_tokens: true,
      nested: { password: REDACTED },
    });
  });

  it('masks server.authToken', () => {
    assert.equal(redacted.server.authToken, REDACTED);
  });

  it('keeps apiKeyEnv and apiKeyFile, which are only a name and a path', () => {
    assert.equal(redacted.targets[1]?.apiKeyEnv, 'B_API_KEY');
    assert.equal(redacted.targets[2]?.apiKeyFile, '/run/secrets/c/api-key');
  });

  it('leaves a null authToken null', () => {
    const open = parseConfig(YAML.replace(/^server:\n.*\n/m, ''), { env: { B_API_KEY: CANARY }, checkFile: () => null });
    assert.ok(open.ok, open.ok ? '' : open.errors.join('\n'));
    assert.equal(redactConfig(open.config).server.authToken, null);
  });

  it('leaves the original config untouched', () => {
    assert.equal(config.targets[0]?.headers['Authorization'], `Bearer ${CANARY}`);
    assert.equal(config.server.authToken, `${CANARY}-auth-token`);
    assert.notEqual(redacted, config);
  });
});
