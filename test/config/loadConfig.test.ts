import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkReadableFile } from '../../src/config/checkReadableFile.js';
import { configFromEnv } from '../../src/config/configFromEnv.js';
import { CA_FILE_MAX_BYTES, readCaFile } from '../../src/config/readCaFile.js';
import { demoConfigPath, loadConfig, loadConfigFromSource, resolveConfigSource } from '../../src/config/loadConfig.js';

const VALID = 'targets:\n  - {name: a, baseUrl: "http://h/v1", model: m}\nprobes:\n  - {name: p, prompt: x, maxTokens: 1}\n';

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'coherency-config-'));
  made.push(dir);
  return dir;
}

describe('loadConfig', () => {
  it('loads and validates a file', async () => {
    const dir = tempDir();
    const path = join(dir, 'c.yaml');
    writeFileSync(path, VALID);
    const r = await loadConfig(path, {});
    assert.ok(r.ok);
    assert.equal(r.config.targets[0]?.name, 'a');
  });

  it('names the path when the file is missing', async () => {
    const path = join(tempDir(), 'missing.yaml');
    assert.deepEqual(await loadConfig(path, {}), { ok: false, errors: [`${path}: config file not found`] });
  });

  it('names the path when it is a directory', async () => {
    const dir = tempDir();
    assert.deepEqual(await loadConfig(dir, {}), { ok: false, errors: [`${dir}: is a directory, not a config file`] });
  });

  it('refuses an empty path', async () => {
    assert.deepEqual(await loadConfig('', {}), { ok: false, errors: ['config file path is empty'] });
  });

  it('puts the path in front of YAML syntax errors', async () => {
    const path = join(tempDir(), 'bad.yaml');
    writeFileSync(path, 'targets: [\n');
    const r = await loadConfig(path, {});
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.errors.every((e) => e.startsWith(`${path}: YAML syntax error at line `)), JSON.stringify(r));
  });

  it('checks apiKeyEnv against the env it is given', async () => {
    const path = join(tempDir(), 'k.yaml');
    writeFileSync(path, VALID.replace('model: m}', 'model: m, apiKeyEnv: LOCAL_API_KEY}'));
    assert.deepEqual(await loadConfig(path, {}), {
      ok: false,
      errors: ['targets[0].apiKeyEnv: environment variable LOCAL_API_KEY is not set'],
    });
    assert.ok((await loadConfig(path, { LOCAL_API_KEY: 'x' })).ok);
  });
});

describe('checkReadableFile (apiKeyFile, tls.caFile)', () => {
  const dir = tempDir();
  const good = join(dir, 'key');
  writeFileSync(good, 'sk-canary-file\n');
  const empty = join(dir, 'empty');
  writeFileSync(empty, '');
  const locked = join(dir, 'locked');
  writeFileSync(locked, 'x');
  chmodSync(locked, 0o000);

  it('accepts a readable, non-empty file', () => assert.equal(checkReadableFile(good), null));
  it('says when it does not exist', () => assert.equal(checkReadableFile(join(dir, 'nope')), 'does not exist'));
  it('says when a parent is not a directory', () => assert.equal(checkReadableFile(join(good, 'x')), 'does not exist'));
  it('says when it is a directory', () => assert.equal(checkReadableFile(dir), 'is a directory, not a file'));
  it('says when it is empty (a Secret mounted before its key was set)', () => assert.equal(checkReadableFile(empty), 'is empty'));
  it('says when it cannot be read', { skip: process.getuid?.() === 0 ? 'root reads every file' : false }, () => {
    assert.equal(checkReadableFile(locked), 'cannot be read (permission denied)');
  });
});

describe('tls.caFile: checked by size at load, read bounded', () => {
  it('refuses a CA file larger than CA_FILE_MAX_BYTES at load, naming the key, and readCaFile refuses it too', async () => {
    const dir = tempDir();
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '');
    truncateSync(ca, CA_FILE_MAX_BYTES + 1);
    const path = join(dir, 'c.yaml');
    writeFileSync(path, VALID.replace('http://h/v1', 'https://h/v1').replace('model: m}', `model: m, tls: {caFile: "${ca}"}}`));
    assert.deepEqual(await loadConfig(path, {}), {
      ok: false,
      errors: [
        `targets[0].tls.caFile: file ${JSON.stringify(ca)} is ${CA_FILE_MAX_BYTES + 1} bytes, more than the ${CA_FILE_MAX_BYTES} read at most`,
      ],
    });
    assert.throws(
      () => readCaFile(ca),
      new RegExp(`^Error: tls\\.caFile ".*ca\\.pem" is ${CA_FILE_MAX_BYTES + 1} bytes, more than the ${CA_FILE_MAX_BYTES} read at most$`),
    );
  });

  it('reads a CA file within the bound; refuses a FIFO put in its place at once, without blocking', () => {
    const dir = tempDir();
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    assert.match(readCaFile(ca).toString('utf8'), /^-----BEGIN CERTIFICATE-----/);
    const fifo = join(dir, 'fifo.pem');
    execFileSync('mkfifo', [fifo]);
    assert.throws(() => readCaFile(fifo), /^Error: tls\.caFile ".*fifo\.pem" is a named pipe \(FIFO\), not a regular file$/);
    assert.throws(() => readCaFile(join(dir, 'gone.pem')), /^Error: tls\.caFile ".*gone\.pem" no such file$/);
  });
});

describe('loadConfig: key files', () => {
  it('checks apiKeyFile at load, never reading the key into the config', async () => {
    const dir = tempDir();
    const keyPath = join(dir, 'api-key');
    writeFileSync(keyPath, 'sk-canary-keyfile\n');
    const path = join(dir, 'c.yaml');
    writeFileSync(path, VALID.replace('model: m}', `model: m, apiKeyFile: "${keyPath}"}`));
    const r = await loadConfig(path, {});
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    assert.equal(r.config.targets[0]?.apiKeyFile, keyPath);
    assert.ok(!JSON.stringify(r.config).includes('sk-canary-keyfile'));

    writeFileSync(path, VALID.replace('model: m}', `model: m, apiKeyFile: "${join(dir, 'gone')}"}`));
    assert.deepEqual(await loadConfig(path, {}), {
      ok: false,
      errors: [`targets[0].apiKeyFile: file ${JSON.stringify(join(dir, 'gone'))} does not exist`],
    });
  });

  it('takes a file check, for check-config on another machine', async () => {
    const path = join(tempDir(), 'c.yaml');
    writeFileSync(path, VALID.replace('model: m}', 'model: m, apiKeyFile: /run/secrets/k}'));
    assert.ok((await loadConfig(path, {}, { checkFile: () => null })).ok);
  });
});

describe('resolveConfigSource: precedence', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'coherency.yaml'), VALID);
  const ENV_ALL = { COHERENCY_CONFIG: 'from-env.yaml', OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'm' };

  it('1. the --config flag wins over everything', () => {
    assert.deepEqual(resolveConfigSource({ configFlag: 'flag.yaml', env: ENV_ALL, cwd: dir }), {
      kind: 'file',
      path: 'flag.yaml',
      from: 'flag',
    });
  });

  it('2. then COHERENCY_CONFIG, even when OPENAI_BASE_URL is set', () => {
    assert.deepEqual(resolveConfigSource({ env: ENV_ALL, cwd: dir }), {
      kind: 'file',
      path: 'from-env.yaml',
      from: 'COHERENCY_CONFIG',
    });
  });

  it('3. then OPENAI_BASE_URL, even though config/coherency.yaml exists', () => {
    assert.deepEqual(resolveConfigSource({ env: { OPENAI_BASE_URL: 'http://h/v1' }, cwd: dir }), {
      kind: 'env',
      from: 'OPENAI_BASE_URL',
    });
  });

  it('4. then config/coherency.yaml in the working directory', () => {
    assert.deepEqual(resolveConfigSource({ env: {}, cwd: dir }), {
      kind: 'file',
      path: join(dir, 'config', 'coherency.yaml'),
      from: 'default',
    });
  });

  it('empty variables count as unset', () => {
    assert.deepEqual(resolveConfigSource({ env: { COHERENCY_CONFIG: '', OPENAI_BASE_URL: ' ' }, cwd: dir }).kind, 'file');
  });

  it('falls back to the packaged config/coherency.yaml when the working directory has none', () => {
    const source = resolveConfigSource({ env: {}, cwd: tempDir() });
    assert.deepEqual(source, { kind: 'file', path: resolve('config/coherency.yaml'), from: 'default' });
  });

  it('--demo wins over every other source: the demo shipped with the package', () => {
    assert.deepEqual(resolveConfigSource({ demo: true, configFlag: 'flag.yaml', env: ENV_ALL, cwd: dir }), {
      kind: 'file',
      path: resolve('config/coherency.yaml'),
      from: 'demo',
    });
  });

  it("the demo is config/demo.yaml where the image put it, else the package's config/coherency.yaml", () => {
    const root = tempDir();
    mkdirSync(join(root, 'config'));
    writeFileSync(join(root, 'config', 'coherency.yaml'), VALID);
    assert.equal(demoConfigPath(root), join(root, 'config', 'coherency.yaml'));
    writeFileSync(join(root, 'config', 'demo.yaml'), VALID);
    assert.equal(demoConfigPath(root), join(root, 'config', 'demo.yaml'));
  });

  it('loadConfigFromSource follows the source', async () => {
    const fromFile = await loadConfigFromSource(resolveConfigSource({ env: {}, cwd: dir }), {});
    assert.ok(fromFile.ok);
    const env = { OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'm' };
    const fromEnv = await loadConfigFromSource(resolveConfigSource({ env, cwd: dir }), env);
    assert.ok(fromEnv.ok);
    assert.equal(fromEnv.config.targets[0]?.name, 'h');
  });
});

describe('configFromEnv', () => {
  it('builds one target with the short and long probes, and a daily conformance probe', () => {
    const r = configFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1/', OPENAI_MODEL: 'qwen' });
    assert.ok(r.ok);
    const { targets, probes, server, simulator } = r.config;
    assert.deepEqual(
      targets.map((t) => [t.name, t.baseUrl, t.model, t.apiKeyEnv, t.probes]),
      [['127-0-0-1', 'http://127.0.0.1:8000/v1', 'qwen', null, ['short', 'long', 'conformance']]],
    );
    assert.deepEqual(
      probes.map((p) => [p.name, p.kind ?? 'generation', p.schedule, p.maxTokens, p.minTokens]),
      [
        ['short', 'generation', '*/5 * * * *', 512, 0],
        ['long', 'generation', '*/30 * * * *', 8000, 1500],
        ['conformance', 'conformance', '0 6 * * *', 512, 0],
      ],
    );
    assert.deepEqual(probes[2]?.conformance?.checks, ['models', 'chat', 'fields', 'reasoning', 'tools', 'streaming', 'limits', 'auth']);
    assert.ok((probes[1]?.messages[0]?.content.length ?? 0) > 200, 'long prompt asks for a long article');
    assert.equal(simulator.enabled, false);
    assert.equal(server.port, 9464);
  });

  it('uses OPENAI_API_KEY by name when it is set', () => {
    const r = configFromEnv({ OPENAI_BASE_URL: 'https://api.example.com/v1', OPENAI_MODEL: 'm', OPENAI_API_KEY: 'sk-canary-env' });
    assert.ok(r.ok);
    assert.equal(r.config.targets[0]?.apiKeyEnv, 'OPENAI_API_KEY');
    assert.ok(!JSON.stringify(r.config).includes('sk-canary-env'));
  });

  it('uses OPENAI_API_KEY_FILE as apiKeyFile, checked at load', () => {
    const dir = tempDir();
    const keyPath = join(dir, 'key');
    writeFileSync(keyPath, 'sk-canary-env-file');
    const r = configFromEnv({ OPENAI_BASE_URL: 'https://h/v1', OPENAI_MODEL: 'm', OPENAI_API_KEY_FILE: keyPath });
    assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
    assert.deepEqual([r.config.targets[0]?.apiKeyFile, r.config.targets[0]?.apiKeyEnv], [keyPath, null]);
    assert.ok(!JSON.stringify(r.config).includes('sk-canary-env-file'));

    const missing = join(dir, 'missing');
    assert.deepEqual(configFromEnv({ OPENAI_BASE_URL: 'https://h/v1', OPENAI_MODEL: 'm', OPENAI_API_KEY_FILE: missing }), {
      ok: false,
      errors: [`OPENAI_API_KEY_FILE: file ${JSON.stringify(missing)} does not exist`],
    });
  });

  it('refuses OPENAI_API_KEY and OPENAI_API_KEY_FILE together', () => {
    assert.deepEqual(
      configFromEnv({ OPENAI_BASE_URL: 'https://h/v1', OPENAI_MODEL: 'm', OPENAI_API_KEY: 'sk-canary', OPENAI_API_KEY_FILE: '/k' }),
      { ok: false, errors: ['OPENAI_API_KEY_FILE: set either OPENAI_API_KEY or OPENAI_API_KEY_FILE, not both'] },
    );
  });

  it('protects the API with COHERENCY_AUTH_TOKEN', () => {
    const r = configFromEnv({ OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'm', COHERENCY_AUTH_TOKEN: 'tok-0123456789abcdef' });
    assert.ok(r.ok);
    assert.equal(r.config.server.authToken, 'tok-0123456789abcdef');
  });

  it('prefers COHERENCY_MODEL over OPENAI_MODEL', () => {
    const r = configFromEnv({ OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'shared', COHERENCY_MODEL: 'mine' });
    assert.ok(r.ok);
    assert.equal(r.config.targets[0]?.model, 'mine');
  });

  it('requires a model', () => {
    assert.deepEqual(configFromEnv({ OPENAI_BASE_URL: 'http://h/v1' }), {
      ok: false,
      errors: ['OPENAI_MODEL: is not set (set OPENAI_MODEL or COHERENCY_MODEL to the model to probe)'],
    });
  });

  it("names the target after the endpoint's host", () => {
    const name = (url: string) => {
      const r = configFromEnv({ OPENAI_BASE_URL: url, OPENAI_MODEL: 'm' });
      return r.ok ? r.config.targets[0]?.name : r.errors.join('; ');
    };
    assert.equal(name('https://llm.staging.example/v1'), 'llm-staging-example');
    assert.equal(name('http://LocalHost:8000/v1'), 'localhost');
    assert.equal(name('http://[::1]:8000/v1'), '1');
    assert.equal(name('https://my_gateway.internal/openai/v1'), 'my_gateway-internal');
  });

  it('without a model variable, takes the model served at /models when given one; the variables win', () => {
    const r = configFromEnv({ OPENAI_BASE_URL: 'http://h/v1' }, {}, 'served-one');
    assert.ok(r.ok);
    assert.equal(r.config.targets[0]?.model, 'served-one');
    const named = configFromEnv({ OPENAI_BASE_URL: 'http://h/v1', OPENAI_MODEL: 'named' }, {}, 'served-one');
    assert.ok(named.ok);
    assert.equal(named.config.targets[0]?.model, 'named');
  });

  it('requires OPENAI_BASE_URL', () => {
    assert.deepEqual(configFromEnv({ OPENAI_MODEL: 'm' }), { ok: false, errors: ['OPENAI_BASE_URL: is not set'] });
  });

  it('names the variable when OPENAI_BASE_URL is not a URL, without echoing it', () => {
    assert.deepEqual(configFromEnv({ OPENAI_BASE_URL: 'localhost:8000', OPENAI_MODEL: 'm' }), {
      ok: false,
      errors: ['OPENAI_BASE_URL: must be an http or https URL'],
    });
    const r = configFromEnv({ OPENAI_BASE_URL: 'https://me:sk-canary-url@h/v1', OPENAI_MODEL: 'm' });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.errors.length === 1 && r.errors[0]?.startsWith('OPENAI_BASE_URL: must not contain credentials'));
    assert.ok(!JSON.stringify(r).includes('sk-canary-url'));
  });
});
