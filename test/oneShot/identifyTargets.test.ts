import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpExchange, HttpFn } from '../../src/client/httpExchange.js';
import { identifyTargets } from '../../src/oneShot/identifyTargets.js';
import { testTarget } from '../helpers/testConfig.js';

const exchange = (over: Partial<HttpExchange>): HttpExchange => ({
  status: null,
  contentType: 'application/json',
  body: '',
  pieces: [],
  headersAtMs: null,
  endedAtMs: 1,
  error: null,
  identityHeaders: {},
  ...over,
});
const answer = (status: number, body: unknown) => exchange({ status, body: JSON.stringify(body), headersAtMs: 1 });

describe('identifyTargets', () => {
  it("reads /models with the target's key and headers, the info endpoint with neither, and joins the run's responses", async () => {
    const sent: { url: string; headers: Record<string, string> }[] = [];
    const http = (async (req) => {
      sent.push({ url: req.url, headers: req.headers });
      if (req.url.endsWith('/v1/models')) return answer(200, { data: [{ id: 'healthy', root: '/models/r1', owned_by: 'x' }] });
      if (req.url.endsWith('/version')) return answer(200, { version: '1.0.0' });
      return answer(404, {});
    }) as HttpFn;
    const target = testTarget({ name: 't', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'K', headers: { 'x-team': 'a' } });
    const served = new Map([['t', [{ model: 'healthy', systemFingerprint: 'fp_r1', headers: { server: 'sim/1' } }]]]);
    const got = await identifyTargets([target], served, { http, env: { K: 'sk-abcdef' } });
    const id = got.get('t')!;
    assert.deepEqual(
      [
        id.fingerprint.server,
        id.fingerprint.version,
        id.fingerprint.modelRevision,
        id.fingerprint.systemFingerprint,
        id.fingerprint.headers,
      ],
      ['vllm', '1.0.0', '/models/r1', 'fp_r1', { server: 'sim/1' }],
    );
    assert.ok(id.secrets.includes('sk-abcdef'), 'the key is known, to keep it out of the file');
    const models = sent.find((s) => s.url === 'http://127.0.0.1:9/v1/models')!;
    assert.equal(models.headers['authorization'], 'Bearer sk-abcdef');
    assert.equal(models.headers['x-team'], 'a');
    const info = sent.find((s) => s.url === 'http://127.0.0.1:9/version')!;
    assert.equal(info.headers['authorization'], undefined);
    assert.equal(info.headers['x-team'], undefined);
  });

  it('never throws: a client that fails, or reads that outlast the time allowed, are lines of `unavailable`', async () => {
    const failing = (async () => {
      throw new Error('boom');
    }) as HttpFn;
    const hanging: HttpFn = (_req, opts) =>
      new Promise((resolve) =>
        opts.signal?.addEventListener('abort', () => resolve(exchange({ error: { type: 'aborted', message: 'aborted' } }))),
      );
    const target = testTarget({ name: 't' });
    const a = (await identifyTargets([target], new Map(), { http: failing, env: {} })).get('t')!;
    assert.match(a.fingerprint.unavailable.join('\n'), /\/models: internal: boom/);
    assert.equal(a.fingerprint.server, null);
    const started = Date.now();
    // a real exchange's socket keeps the process alive; this one has none (the timeout's timer does not)
    const alive = setTimeout(() => {}, 5_000);
    const b = (await identifyTargets([target], new Map(), { http: hanging, env: {}, timeoutMs: 50 })).get('t')!;
    clearTimeout(alive);
    assert.ok(Date.now() - started < 2_000, 'bounded by timeoutMs');
    assert.match(b.fingerprint.unavailable.join('\n'), /\/models: aborted/);
  });
});
