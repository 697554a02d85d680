// Every secret the configuration holds is redacted from what any target sends back: each
// target's key (environment or file) and credential headers, the OTLP exporter's credential
// headers and the daemon's token. A key that cannot be read adds nothing and fails nothing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { redactText } from '../../src/client/redactSecrets.js';
import { OTLP_OFF } from '../../src/config/otlpConfig.js';
import { configSecrets, keptSecrets } from '../../src/probe/configSecrets.js';
import { readKeyFile } from '../../src/probe/readKeyFile.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';

const ENV_KEY = 'sk-envKeyA1b2C3d4E5f6';
const FILE_KEY = 'sk-fileKeyG7h8I9j0K1l2';
const HEADER_KEY = 'hk-headerM3n4O5p6Q7r8';
const OTLP_KEY = 'otlpS9t0U1v2W3x4';
const TOKEN = 'tokenY5z6A7b8C9d0E1';

describe('configSecrets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-config-secrets-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'key'), `${FILE_KEY}\n`);
  writeFileSync(join(dir, 'empty'), '\n');

  const config = testConfig({
    server: { ...testConfig().server, authToken: TOKEN },
    otlp: { ...OTLP_OFF, headers: { authorization: `Bearer ${OTLP_KEY}`, 'x-scope': 'tenant-1' } },
    targets: [
      testTarget({ name: 'env', apiKeyEnv: 'ENV_KEY' }),
      testTarget({ name: 'file', apiKeyFile: join(dir, 'key') }),
      testTarget({ name: 'header', headers: { 'X-Api-Key': HEADER_KEY, 'x-team': 'blue-team-name' } }),
      testTarget({ name: 'missing', apiKeyFile: join(dir, 'none') }),
      testTarget({ name: 'empty', apiKeyFile: join(dir, 'empty') }),
      testTarget({ name: 'unset', apiKeyEnv: 'UNSET_KEY' }),
    ],
  });

  it('holds every target key, credential header, OTLP credential and the token, longest first', async () => {
    const secrets = await configSecrets(config, { ENV_KEY }, readKeyFile);
    assert.deepEqual(new Set(secrets), new Set([ENV_KEY, FILE_KEY, HEADER_KEY, OTLP_KEY, TOKEN]));
    for (let i = 1; i < secrets.length; i++) assert.ok((secrets[i - 1] as string).length >= (secrets[i] as string).length);
    // headers that carry no credential (by their name) are no secret, as for a target's own requests
    assert.ok(!secrets.includes('tenant-1') && !secrets.includes('blue-team-name'));
  });

  it('a key file that cannot be read, an empty one and an unset variable add nothing and throw nothing', async () => {
    const only = testConfig({ targets: config.targets.slice(3), otlp: OTLP_OFF, server: { ...config.server, authToken: null } });
    assert.deepEqual(await configSecrets(only, {}, readKeyFile), []);
    // without a reader a key file cannot be read either
    assert.deepEqual(
      await configSecrets(config, { ENV_KEY }),
      [ENV_KEY, HEADER_KEY, OTLP_KEY, TOKEN].sort((a, b) => b.length - a.length),
    );
  });

  it('what they redact: a piece of another target key in an answer', async () => {
    const secrets = await configSecrets(config, { ENV_KEY }, readKeyFile);
    assert.equal(
      redactText(`you are not ${FILE_KEY.slice(3, 14)} nor ${TOKEN.toUpperCase()}`, secrets),
      'you are not [redacted] nor [redacted]',
    );
  });
});

describe('keptSecrets', () => {
  it('reads once per max age, shares a read under way, and reads again after clear (a reload)', async () => {
    let reads = 0;
    let nowMs = 0;
    const kept = keptSecrets(
      async () => {
        reads++;
        return [`secret-${reads}`];
      },
      () => nowMs,
      1000,
    );
    const [a, b] = await Promise.all([kept.get(), kept.get()]);
    assert.deepEqual([a, b, reads], [['secret-1'], ['secret-1'], 1]);
    nowMs = 999;
    assert.deepEqual(await kept.get(), ['secret-1']);
    nowMs = 1000;
    assert.deepEqual(await kept.get(), ['secret-2']);
    kept.clear();
    assert.deepEqual(await kept.get(), ['secret-3']);
  });

  it('a reader that throws gives no secrets instead of failing the run', async () => {
    const kept = keptSecrets(
      () => Promise.reject(new Error('boom')),
      () => 0,
    );
    assert.deepEqual(await kept.get(), []);
  });
});
