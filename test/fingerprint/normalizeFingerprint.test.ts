import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  describeChanges,
  diffFingerprints,
  displayedServer,
  displayedVersion,
  fingerprintHash,
  isInfoBody,
  mergeFingerprint,
  modelEntryOf,
  normalizeFingerprint,
  type FingerprintInput,
} from '../../src/fingerprint/normalizeFingerprint.js';

const input = (over: Partial<FingerprintInput> = {}): FingerprintInput => ({
  served: [{ model: 'm', systemFingerprint: 'fp_1', headers: { server: 'uvicorn' } }],
  modelEntry: { id: 'm', root: '/models/m-r1', ownedBy: 'vllm', maxModelLen: 32768, created: 1 },
  info: { path: '/version', body: { version: '0.6.3' } },
  unavailable: [],
  ...over,
});

describe('normalizeFingerprint', () => {
  test('each server: which fields its info endpoint gives', () => {
    const cases: Array<[FingerprintInput['info'], Record<string, unknown>]> = [
      [
        { path: '/version', body: { version: '0.6.3' } },
        { server: 'vllm', version: '0.6.3', modelRevision: '/models/m-r1' },
      ],
      [
        { path: '/get_server_info', body: { version: '0.4.1', model_path: 'org/m', kv_cache_dtype: 'fp8_e5m2', context_length: 8192 } },
        { server: 'sglang', version: '0.4.1', modelRevision: 'org/m', settings: { kv_cache_dtype: 'fp8_e5m2' } },
      ],
      [
        { path: '/props', body: { build_info: 'b4600-1a2b3c', model_path: '/m/q4.gguf', default_generation_settings: { n_ctx: 4096 } } },
        { server: 'llama.cpp', version: 'b4600-1a2b3c', modelRevision: '/m/q4.gguf' },
      ],
      [
        { path: '/info', body: { model_id: 'org/m', model_sha: 'abc123', model_dtype: 'torch.float16', version: '2.4.0' } },
        { server: 'tgi', version: '2.4.0', modelRevision: 'abc123', settings: { model_dtype: 'torch.float16' } },
      ],
      [
        { path: '/api/version', body: { version: '0.5.1' } },
        { server: 'ollama', version: '0.5.1' },
      ],
    ];
    for (const [info, want] of cases) {
      const fp = normalizeFingerprint(input({ info }));
      for (const [k, v] of Object.entries(want)) assert.deepEqual(fp[k as keyof typeof fp], v, `${info?.path} ${k}`);
    }
  });

  test('without an info endpoint, the server header names the server shown; a version header gives the version shown', () => {
    const fp = normalizeFingerprint(
      input({
        info: null,
        served: [{ model: 'm', systemFingerprint: null, headers: { server: 'nginx/1.25.3', 'openai-version': '2020-10-01' } }],
      }),
    );
    assert.equal(fp.server, null);
    assert.equal(displayedServer(fp), 'nginx');
    assert.equal(displayedVersion(fp), '2020-10-01');
    const bare = normalizeFingerprint(
      input({ info: null, served: [{ model: 'm', systemFingerprint: null, headers: { server: 'nginx/1.25.3' } }] }),
    );
    assert.equal(displayedVersion(bare), '1.25.3');
    assert.equal(displayedServer(normalizeFingerprint(input())), 'vllm');
  });

  test('the last response that names a field wins; sources say what was read', () => {
    const fp = normalizeFingerprint(
      input({
        served: [
          { model: 'a', systemFingerprint: 'fp_a', headers: {} },
          { model: null, systemFingerprint: 'fp_b', headers: {} },
        ],
        ollamaShow: { details: { quantization_level: 'Q4_K_M' } },
        info: { path: '/api/version', body: { version: '0.5.1' } },
      }),
    );
    assert.equal(fp.model, 'a');
    assert.equal(fp.systemFingerprint, 'fp_b');
    assert.deepEqual(fp.settings, { quantization_level: 'Q4_K_M' });
    assert.deepEqual(fp.sources, ['responses', '/models', '/api/version', '/api/show']);
  });

  test('the hash: 12 hex digits, the same for the same identity in any key order, another for any identity change', () => {
    const a = normalizeFingerprint(input());
    assert.match(a.hash, /^[0-9a-f]{12}$/);
    const reordered = normalizeFingerprint(
      input({ served: [{ model: 'm', systemFingerprint: 'fp_1', headers: { 'x-version': '1', server: 'uvicorn' } }] }),
    );
    const again = normalizeFingerprint(
      input({ served: [{ systemFingerprint: 'fp_1', headers: { server: 'uvicorn', 'x-version': '1' }, model: 'm' }] }),
    );
    assert.equal(reordered.hash, again.hash);
    // created and what could not be read are not the identity
    assert.equal(normalizeFingerprint(input({ unavailable: ['/props: HTTP 404'] })).hash, a.hash);
    assert.equal(
      normalizeFingerprint(input({ modelEntry: { id: 'm', root: '/models/m-r1', ownedBy: 'vllm', maxModelLen: 32768, created: 99 } })).hash,
      a.hash,
    );
    assert.notEqual(normalizeFingerprint(input({ info: { path: '/version', body: { version: '0.7.0' } } })).hash, a.hash);
    assert.equal(fingerprintHash(a), a.hash);
  });

  test('long strings are cut, odd types ignored', () => {
    const fp = normalizeFingerprint(
      input({
        served: [{ model: 'x'.repeat(1000), systemFingerprint: null, headers: {} }],
        info: { path: '/version', body: { version: { no: 1 } } },
      }),
    );
    assert.equal(fp.model?.length, 200);
    assert.equal(fp.version, null);
  });
});

describe('modelEntryOf and isInfoBody', () => {
  test("the model's entry, else the only one; none in a body without data", () => {
    const body = { data: [{ id: 'a', root: 'r', owned_by: 'o', max_model_len: 10, created: 5 }, { id: 'b' }] };
    assert.deepEqual(modelEntryOf(body, 'a'), { id: 'a', root: 'r', ownedBy: 'o', maxModelLen: 10, created: 5 });
    assert.equal(modelEntryOf(body, 'c'), null);
    assert.equal(modelEntryOf({ data: [{ id: 'only' }] }, 'c')?.id, 'only');
    assert.equal(modelEntryOf({ error: 'x' }, 'a'), null);
    assert.equal(modelEntryOf('nope', 'a'), null);
  });

  test('a proxy answering {} or another shape to every path is not an info endpoint', () => {
    assert.equal(isInfoBody('/version', {}), false);
    assert.equal(isInfoBody('/info', { version: '1' }), false);
    assert.equal(isInfoBody('/info', { model_id: 'm' }), true);
    assert.equal(isInfoBody('/props', { build_info: 'b1' }), true);
  });
});

describe('mergeFingerprint and diffFingerprints', () => {
  test('a failed read keeps what was known: no change', () => {
    const known = normalizeFingerprint(input());
    const fresh = normalizeFingerprint(input({ info: null, modelEntry: null, served: [], unavailable: ['info: none answered'] }));
    const merged = mergeFingerprint(known, fresh);
    assert.equal(merged.hash, known.hash);
    assert.deepEqual(diffFingerprints(known, merged), []);
    assert.deepEqual(merged.unavailable, ['info: none answered']);
  });

  test('a field learned is not a change; a field that differs is, field by field', () => {
    const known = normalizeFingerprint(input({ info: null }));
    const learned = mergeFingerprint(known, normalizeFingerprint(input()));
    assert.deepEqual(diffFingerprints(known, learned), []);
    const upgraded = mergeFingerprint(
      learned,
      normalizeFingerprint(
        input({
          info: { path: '/version', body: { version: '0.7.0' } },
          served: [{ model: 'm', systemFingerprint: 'fp_2', headers: { server: 'uvicorn' } }],
        }),
      ),
    );
    const changes = diffFingerprints(learned, upgraded);
    assert.deepEqual(changes, [
      { field: 'version', before: '0.6.3', after: '0.7.0' },
      { field: 'systemFingerprint', before: 'fp_1', after: 'fp_2' },
    ]);
    assert.equal(describeChanges(changes), 'version 0.6.3 → 0.7.0, systemFingerprint fp_1 → fp_2');
    assert.notEqual(upgraded.hash, learned.hash);
  });

  test('settings and headers are compared by name', () => {
    const a = normalizeFingerprint(
      input({ info: { path: '/get_server_info', body: { version: '1', model_path: 'm', kv_cache_dtype: 'auto' } } }),
    );
    const b = normalizeFingerprint(
      input({
        info: { path: '/get_server_info', body: { version: '1', model_path: 'm', kv_cache_dtype: 'fp8' } },
        served: [{ model: 'm', systemFingerprint: 'fp_1', headers: { server: 'hypercorn' } }],
      }),
    );
    assert.deepEqual(
      diffFingerprints(a, mergeFingerprint(a, b)).map((c) => c.field),
      ['settings.kv_cache_dtype', 'headers.server'],
    );
  });
});

describe('normalizeFingerprint redacts the target secrets', () => {
  const KEY = 'sk-fpCanary0123456789abcdefABCDEF';
  const echoing = input({
    served: [
      {
        model: `m-${KEY}`,
        systemFingerprint: `fp-${KEY.slice(0, 20)}`,
        headers: { server: `srv-${KEY.toLowerCase()}`, [`x-${KEY.toLowerCase()}-version`]: '1' },
      },
    ],
    modelEntry: { id: 'm', root: `/models/${KEY}`, ownedBy: KEY.toUpperCase(), maxModelLen: 32768, created: 1 },
    info: { path: '/get_server_info', body: { version: KEY.slice(4, 30), model_path: 'org/m', kv_cache_dtype: `fp8-${KEY}` } },
    unavailable: [`/models: HTTP 401 ${KEY.slice(3, 12)}`],
    secrets: [KEY],
  });

  test('no 8-character piece of the key is in any field, and the hash is of the redacted record', () => {
    const fp = normalizeFingerprint(echoing);
    const text = JSON.stringify(fp).toLowerCase();
    for (let i = 0; i + 8 <= KEY.length; i++) assert.ok(!text.includes(KEY.slice(i, i + 8).toLowerCase()), text);
    assert.equal(fp.headers['server'], 'srv-[redacted]');
    assert.equal(fp.systemFingerprint, 'fp-[redacted]');
    assert.equal(displayedServer({ ...fp, server: null }), 'srv-[redacted]');
    const { hash, sources: _s, unavailable: _u, created: _c, ...record } = fp;
    assert.equal(hash, fingerprintHash(record));
  });

  test('without secrets the record is as the target said it', () => {
    const fp = normalizeFingerprint({ ...echoing, secrets: [] });
    assert.equal(fp.systemFingerprint, `fp-${KEY.slice(0, 20)}`);
  });
});
