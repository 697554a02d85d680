import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpErrorHint } from '../../src/probe/httpErrorHint.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { silentLogger, streamResult, testProbe, testTarget } from '../helpers/testConfig.js';

const none = { apiKeyEnv: null, apiKeyFile: null, headers: {} };

test('a 404 names the URL tried and, without /v1 in it, suggests it', () => {
  assert.equal(
    httpErrorHint(404, 'http://10.0.0.5:8000/chat/completions', none, false),
    '; tried POST http://10.0.0.5:8000/chat/completions: the base URL has no /v1, under which OpenAI-compatible servers answer (try baseUrl http://10.0.0.5:8000/v1)',
  );
  assert.equal(
    httpErrorHint(404, 'https://api.example/v1/chat/completions', none, false),
    '; tried POST https://api.example/v1/chat/completions',
  );
  assert.equal(
    httpErrorHint(404, 'https://x.example/openai/chat/completions?api-version=1&api-key=sk-secret', none, false),
    '; tried POST https://x.example/openai/chat/completions?…: the base URL has no /v1, under which OpenAI-compatible servers answer (try baseUrl https://x.example/openai/v1)',
  );
});

test('a 401 or 403 says whether a key was sent and where it came from, never the key', () => {
  assert.match(
    httpErrorHint(401, 'http://h/v1/chat/completions', { ...none, apiKeyEnv: 'VLLM_KEY' }, true),
    /a key was sent, from \$VLLM_KEY/,
  );
  assert.match(
    httpErrorHint(403, 'http://h/v1/chat/completions', { ...none, apiKeyFile: '/run/secrets/key' }, true),
    /from the file \/run\/secrets\/key/,
  );
  assert.match(
    httpErrorHint(401, 'http://h/v1/chat/completions', { ...none, apiKeyEnv: 'VLLM_KEY' }, false),
    /no key was sent: \$VLLM_KEY \(apiKeyEnv\) is empty or unset/,
  );
  assert.match(
    httpErrorHint(401, 'http://h/v1/chat/completions', none, false),
    /no key was sent: the target names no apiKeyEnv or apiKeyFile/,
  );
  assert.match(httpErrorHint(401, 'http://h/v1/chat/completions', { ...none, headers: { 'api-key': 'x' } }, false), /target's headers/);
  assert.equal(httpErrorHint(500, 'http://h/v1/chat/completions', none, false), '');
});

test("the sample's error message carries the hint; the key never appears", async () => {
  const key = 'sk-canary-0123456789abcdef';
  for (const [status, expected] of [
    [404, /^HTTP 404: not found; tried POST http:\/\/127\.0\.0\.1:1\/chat\/completions: the base URL has no \/v1/],
    [401, /^HTTP 401 \(auth\): bad key; a key was sent, from \$THE_KEY/],
  ] as const) {
    const run = await runProbe(
      testTarget({ baseUrl: 'http://127.0.0.1:1', apiKeyEnv: 'THE_KEY' }),
      testProbe(),
      {
        stream: async () =>
          streamResult({
            content: '',
            outputTokens: 0,
            httpStatus: status,
            error: { type: 'http_status', message: status === 404 ? 'HTTP 404: not found' : 'HTTP 401 (auth): bad key' },
          }),
        env: { THE_KEY: key },
        now: Date.now,
        logger: silentLogger,
        newId: () => 'r',
      },
      'manual',
    );
    const message = run.samples[0]?.error?.message ?? '';
    assert.match(message, expected);
    assert.equal(JSON.stringify(run).includes(key), false);
  }
});
