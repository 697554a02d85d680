import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HttpExchange, HttpFn, HttpOptions, HttpRequest } from '../../src/client/httpExchange.js';
import { MODELS_READ, readServedModel } from '../../src/daemon/servedModel.js';
import { configFromEnv } from '../../src/config/configFromEnv.js';
import { readKeyFile } from '../../src/probe/readKeyFile.js';

const answer = (status: number | null, body: string, error: HttpExchange['error'] = null): HttpExchange => ({
  status,
  contentType: 'application/json',
  body,
  pieces: [],
  headersAtMs: 1,
  endedAtMs: 2,
  error,
});

function targetOf(env: Record<string, string>) {
  const r = configFromEnv(env, {}, 'pending');
  assert.ok(r.ok, r.ok ? '' : r.errors.join('\n'));
  return r.config.targets[0]!;
}

describe('readServedModel', () => {
  it('reads {baseUrl}/models once, with the key as the chat requests send it, bounded in time and size', async () => {
    const seen: [HttpRequest, HttpOptions][] = [];
    const http: HttpFn = async (req, options) => {
      seen.push([req, options]);
      return answer(200, '{"data":[{"id":"only-one"}]}');
    };
    const env = { OPENAI_BASE_URL: 'http://h:8000/v1/', OPENAI_API_KEY: 'sk-canary-models' };
    const choice = await readServedModel(targetOf(env), env, { http, readKeyFile: async () => assert.fail('no key file') });
    assert.deepEqual(choice, { ok: true, model: 'only-one', note: 'the only one http://h:8000/v1/models lists' });
    assert.equal(seen.length, 1);
    const [req, options] = seen[0]!;
    assert.equal(req.method, 'GET');
    assert.equal(req.url, 'http://h:8000/v1/models');
    assert.equal(req.headers['authorization'], 'Bearer sk-canary-models');
    assert.equal(req.headers['accept'], 'application/json');
    assert.deepEqual(options.timeouts, MODELS_READ.timeouts);
    assert.equal(options.maxBytes, MODELS_READ.maxBytes);
  });

  it('passes the configuration secrets to the read, which redacts them from the answer (the token, the OTLP credential)', async () => {
    let secretsSeen: readonly string[] | undefined;
    const http: HttpFn = async (_req, options) => {
      secretsSeen = options.secrets;
      return answer(200, '{"data":[{"id":"only-one"}]}');
    };
    const env = { OPENAI_BASE_URL: 'http://h:8000/v1/', OPENAI_API_KEY: 'sk-canary-models' };
    await readServedModel(targetOf(env), env, { http, readKeyFile, secrets: ['daemon-token-0123456789'] });
    assert.deepEqual(secretsSeen, ['daemon-token-0123456789']);
  });

  it("reads the key from OPENAI_API_KEY_FILE, and passes the target's pool", async () => {
    let auth: string | undefined;
    let dispatcherSeen: unknown;
    const dispatcher = { marker: true } as unknown as NonNullable<HttpOptions['dispatcher']>;
    const http: HttpFn = async (req, options) => {
      auth = req.headers['authorization'];
      dispatcherSeen = options.dispatcher;
      return answer(200, '{"data":[{"id":"a"},{"id":"b"}]}');
    };
    const dir = mkdtempSync(join(tmpdir(), 'served-model-'));
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'sk-from-file\n');
    const env = { OPENAI_BASE_URL: 'https://h/v1', OPENAI_API_KEY_FILE: keyFile };
    const choice = await readServedModel(targetOf(env), env, { http, readKeyFile, dispatcher });
    rmSync(dir, { recursive: true, force: true });
    assert.equal(auth, 'Bearer sk-from-file');
    assert.equal(dispatcherSeen, dispatcher);
    assert.equal(choice.ok, false);
    assert.match(choice.ok ? '' : choice.message, /lists 2 models:\n {4}a\n {4}b\n/);
  });

  it('a failed read or a client that throws: the message says why, never throws', async () => {
    const env = { OPENAI_BASE_URL: 'http://h/v1' };
    const refused = await readServedModel(targetOf(env), env, {
      http: async () => answer(null, '', { type: 'connect', message: 'ECONNREFUSED before an answer' }),
      readKeyFile: async () => '',
    });
    assert.match(refused.ok ? '' : refused.message, /could not be read from http:\/\/h\/v1\/models: connect: ECONNREFUSED/);
    const thrown = await readServedModel(targetOf(env), env, {
      http: async () => {
        throw new Error('boom');
      },
      readKeyFile: async () => '',
    });
    assert.match(thrown.ok ? '' : thrown.message, /internal: boom/);
  });
});
