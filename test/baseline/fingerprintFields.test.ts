import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprintFields, joinFingerprints } from '../../src/baseline/fingerprintFields.js';
import { normalizeFingerprint } from '../../src/fingerprint/normalizeFingerprint.js';

const fp = (unavailable: string[] = [], server = 'uvicorn') =>
  normalizeFingerprint({
    served: [{ model: 'org/m', systemFingerprint: 'fp_1', headers: { server, 'x-vllm-version': '0.6.3' } }],
    modelEntry: { id: 'org/m', root: '/models/m-r1', ownedBy: 'vllm', maxModelLen: 32768, created: 1_700_000_000 },
    info: { path: '/get_server_info', body: { version: '0.4.1', model_path: 'org/m@abc', kv_cache_dtype: 'fp8_e5m2' } },
    unavailable,
  });

describe('fingerprintFields', () => {
  it('flattens the normalized record into strings, by the names diffFingerprints uses, with its hash', () => {
    const f = fp();
    assert.deepEqual(fingerprintFields(f, []), {
      server: 'sglang',
      version: '0.4.1',
      answeredModel: 'org/m',
      modelRevision: 'org/m@abc',
      systemFingerprint: 'fp_1',
      maxModelLen: '32768',
      ownedBy: 'vllm',
      'settings.kv_cache_dtype': 'fp8_e5m2',
      'headers.server': 'uvicorn',
      'headers.x-vllm-version': '0.6.3',
      hash: f.hash,
      unavailable: null,
    });
    assert.match(f.hash, /^[0-9a-f]{12}$/);
  });

  it('keeps the reads that failed as one line, and leaves `created` out (servers stamp it per request)', () => {
    const f = fingerprintFields(fp(['/models: HTTP 401', 'info: none of /version answered']), []);
    assert.equal(f['unavailable'], '/models: HTTP 401; info: none of /version answered');
    assert.ok(!Object.values(f).includes('1700000000') && !('created' in f));
  });

  it('redacts the credentials a server echoes into a field, the bare token and the header value', () => {
    const f = fingerprintFields(fp([], 'echo Bearer sk-secret-123456'), ['Bearer sk-secret-123456', 'sk-secret-123456']);
    assert.equal(f['headers.server'], 'echo [redacted]');
    assert.ok(!JSON.stringify(f).includes('sk-secret'));
  });
});

describe('joinFingerprints', () => {
  it("the target's fields win where they have a value; the run's stay where the reads gave none", () => {
    const run = { model: 'm', origin: 'http://h/v1', answeredModel: 'from-checklist', systemFingerprint: 'fp_run', server: null };
    assert.deepEqual(joinFingerprints(run, { answeredModel: null, systemFingerprint: 'fp_read', server: 'vllm', version: '1' }), {
      model: 'm',
      origin: 'http://h/v1',
      answeredModel: 'from-checklist',
      systemFingerprint: 'fp_read',
      server: 'vllm',
      version: '1',
    });
    assert.equal(joinFingerprints(run, undefined), run);
  });
});
