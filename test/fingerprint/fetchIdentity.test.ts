import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { HttpExchange, HttpFn, HttpRequest } from '../../src/client/httpExchange.js';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { fetchIdentity, originOf } from '../../src/fingerprint/fetchIdentity.js';
import { FingerprintCache } from '../../src/fingerprint/fingerprintCache.js';
import { startLoopback } from '../client/loopback.js';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}): HttpExchange => ({
  status,
  contentType: 'application/json',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  pieces: [],
  headersAtMs: 1,
  endedAtMs: 2,
  error: null,
  identityHeaders: headers,
});

/** A fake server: path → answer; every request is logged. */
function fakeHttp(routes: Record<string, HttpExchange>) {
  const seen: HttpRequest[] = [];
  const http: HttpFn = async (req) => {
    seen.push(req);
    return routes[new URL(req.url).pathname] ?? answer(404, { error: 'not found' });
  };
  return { http, seen };
}

const target = { baseUrl: 'http://10.0.0.5:8000/v1', model: 'm', headers: { authorization: 'Bearer sk-secret', 'x-tenant': 't1' } };

describe('fetchIdentity', () => {
  test('reads /models under baseUrl and the info endpoints at the origin; the key goes to /models only', async () => {
    const { http, seen } = fakeHttp({
      '/v1/models': answer(200, { data: [{ id: 'm', root: '/w/m', owned_by: 'vllm', max_model_len: 4096 }] }, { server: 'uvicorn' }),
      '/version': answer(200, { version: '0.6.3' }),
    });
    const reads = await fetchIdentity(target, { http, userAgent: 'ua' });
    assert.equal(reads.modelEntry?.root, '/w/m');
    assert.deepEqual(reads.info, { path: '/version', body: { version: '0.6.3' } });
    assert.deepEqual(reads.headers, { server: 'uvicorn' });
    for (const r of seen) assert.equal(new URL(r.url).origin, 'http://10.0.0.5:8000', r.url);
    const models = seen.find((r) => r.url.endsWith('/v1/models'));
    assert.equal(models?.headers['authorization'], 'Bearer sk-secret');
    const others = seen.filter((r) => !r.url.endsWith('/v1/models'));
    assert.deepEqual(others.map((r) => new URL(r.url).pathname).sort(), [
      '/api/version',
      '/get_server_info',
      '/info',
      '/props',
      '/version',
    ]);
    for (const r of others) {
      assert.equal(r.headers['authorization'], undefined, `${r.url} carries no key`);
      assert.equal(r.headers['x-tenant'], undefined, `${r.url} carries none of the target's headers`);
      assert.equal(r.headers['user-agent'], 'ua');
    }
  });

  test('with the info path known, only it is read; Ollama is asked /api/show for the model', async () => {
    const { http, seen } = fakeHttp({
      '/v1/models': answer(200, { data: [{ id: 'm' }] }),
      '/api/version': answer(200, { version: '0.5.1' }),
      '/api/show': answer(200, { details: { quantization_level: 'Q4_K_M' } }),
    });
    const reads = await fetchIdentity(target, { http, infoPath: '/api/version' });
    assert.deepEqual(
      seen.map((r) => `${r.method} ${new URL(r.url).pathname}`),
      ['GET /v1/models', 'GET /api/version', 'POST /api/show'],
    );
    assert.deepEqual(seen[2]?.body, { model: 'm' });
    assert.deepEqual(reads.ollamaShow, { details: { quantization_level: 'Q4_K_M' } });
  });

  test('every failed read is a line of unavailable, none throws', async () => {
    const { http } = fakeHttp({
      '/v1/models': answer(401, { error: 'no' }),
      '/version': answer(302, ''),
      '/props': answer(200, '<html>'),
    });
    const reads = await fetchIdentity(target, { http });
    assert.equal(reads.modelEntry, null);
    assert.deepEqual(reads.unavailable, [
      '/models: HTTP 401',
      'info: none of /version, /get_server_info, /props, /info, /api/version answered',
    ]);
    const throwing: HttpFn = async () => {
      throw new Error('boom');
    };
    const broken = await fetchIdentity(target, { http: throwing });
    assert.match(broken.unavailable[0] ?? '', /internal: boom/);
    const bad = await fetchIdentity({ ...target, baseUrl: 'ftp://x' }, { http });
    assert.deepEqual(bad.unavailable, ['baseUrl "ftp://x" is not http(s)']);
  });

  test('originOf names a bad baseUrl', () => {
    assert.equal(originOf('https://api.example.com/tenant/v1'), 'https://api.example.com');
    assert.throws(() => originOf('nope'), /baseUrl "nope" is not a URL/);
  });
});

describe('fetchIdentity against a redirecting server', () => {
  after(() => closeHttpDispatchers());

  test('a redirect is not followed: no request reaches the host it points to', async () => {
    const elsewhere = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ version: '9.9.9', data: [{ id: 'm', root: 'stolen' }] }));
    });
    const redirecting = await startLoopback((req, res) => {
      res.writeHead(302, { location: `${new URL(elsewhere.url).origin}${req.url}` });
      res.end();
    });
    try {
      const reads = await fetchIdentity(
        { baseUrl: `${new URL(redirecting.url).origin}/v1`, model: 'm', headers: { authorization: 'Bearer sk-redirect' } },
        { http: httpExchange },
      );
      assert.equal(elsewhere.requests.length, 0, 'the other host got no request');
      assert.equal(redirecting.requests.length, 6, '/v1/models and the five info endpoints, each once');
      assert.equal(reads.modelEntry, null);
      assert.equal(reads.info, null);
      assert.ok(reads.unavailable.includes('/models: HTTP 302 redirect not followed'), reads.unavailable.join('; '));
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });
});

describe('FingerprintCache', () => {
  const reads = (version: string) => ({
    modelEntry: null,
    info: { path: '/version' as const, body: { version } },
    ollamaShow: null,
    headers: {},
    unavailable: [],
  });
  const served = (fp: string) => [{ model: 'm', systemFingerprint: fp, headers: { server: 'uvicorn' } }];

  test('reads once per refresh period, again when the responses change, and passes the known info path', async () => {
    let clock = 0;
    let version = '1';
    const calls: Array<string | null> = [];
    const cache = new FingerprintCache(
      async (_t, o) => {
        calls.push(o.infoPath);
        return reads(version);
      },
      () => clock,
      1000,
    );
    const t = { baseUrl: 'http://h/v1', model: 'm', headers: {} };
    assert.equal((await cache.fingerprint('a', t, served('fp1'))).version, '1');
    version = '2';
    clock = 500;
    assert.equal((await cache.fingerprint('a', t, served('fp1'))).version, '1', 'cached');
    assert.equal((await cache.fingerprint('a', t, [])).version, '1', 'a run without responses does not refresh');
    assert.equal((await cache.fingerprint('a', t, served('fp2'))).version, '2', 'a new system_fingerprint reads again');
    version = '3';
    clock = 1600;
    assert.equal((await cache.fingerprint('a', t, served('fp2'))).version, '3', 'the period ran out');
    assert.deepEqual(calls, [null, '/version', '/version']);
    cache.forget('a');
    await cache.fingerprint('a', t, served('fp2'));
    assert.equal(calls.at(-1), null);
  });

  test('a fetch that throws is a fingerprint with the reason in unavailable', async () => {
    const cache = new FingerprintCache(
      async () => {
        throw new Error('down');
      },
      () => 0,
    );
    const fp = await cache.fingerprint('a', { baseUrl: 'http://h/v1', model: 'm', headers: {} }, served('fp1'));
    assert.equal(fp.systemFingerprint, 'fp1');
    assert.deepEqual(fp.unavailable, ['reads failed: down']);
  });

  test('two runs of one target that end together share one read', async () => {
    let calls = 0;
    const cache = new FingerprintCache(
      async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 10));
        return reads('1');
      },
      () => 0,
    );
    const t = { baseUrl: 'http://h/v1', model: 'm', headers: {} };
    const [a, b] = await Promise.all([cache.fingerprint('a', t, served('fp1')), cache.fingerprint('a', t, served('fp1'))]);
    assert.equal(calls, 1);
    assert.equal(a.hash, b.hash);
  });
});
