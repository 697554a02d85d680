// Which requests may start a run on /probe (issue 34, part 2), and the CSRF token of the pages' run button.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsrfTokens } from '../../src/http/csrfToken.js';
import { curlExample, mediaType, runRefusal, type RunRequest } from '../../src/http/runRequest.js';

const base: RunRequest = { method: 'POST', contentType: undefined, bearer: false, csrf: false };

test('the bearer token runs with any method; without it only a JSON POST or a form with its CSRF token', () => {
  assert.equal(runRefusal({ ...base, method: 'GET', bearer: true }), null);
  assert.equal(runRefusal({ ...base, bearer: true, contentType: 'text/plain' }), null);
  assert.equal(runRefusal({ ...base, contentType: 'application/json' }), null);
  assert.equal(runRefusal({ ...base, contentType: 'Application/JSON; charset=utf-8' }), null);
  assert.equal(runRefusal({ ...base, contentType: 'application/x-www-form-urlencoded', csrf: true }), null);
  const cases: [Partial<RunRequest>, number, string][] = [
    [{ method: 'GET' }, 405, 'USE_POST'],
    [{ method: 'HEAD' }, 405, 'USE_POST'],
    [{ contentType: 'application/x-www-form-urlencoded' }, 403, 'CSRF_TOKEN_REQUIRED'],
    [{ contentType: 'text/plain' }, 415, 'JSON_BODY_REQUIRED'],
    [{ contentType: 'multipart/form-data; boundary=x' }, 415, 'JSON_BODY_REQUIRED'],
    [{ contentType: 'text/plain; application/json' }, 415, 'JSON_BODY_REQUIRED'],
    [{}, 415, 'JSON_BODY_REQUIRED'],
  ];
  for (const [r, status, code] of cases) {
    const refusal = runRefusal({ ...base, ...r });
    assert.equal(refusal?.status, status, JSON.stringify(r));
    assert.equal(refusal?.code, code);
  }
  assert.match(runRefusal(base)!.message, /got no content type/);
  assert.match(runRefusal({ ...base, method: 'GET' })!.message, /POST it with a JSON body/);
});

test('mediaType and the curl line', () => {
  assert.equal(mediaType(' Text/Plain ;charset=utf-8'), 'text/plain');
  assert.equal(mediaType(undefined), '');
  assert.equal(
    curlExample('http://127.0.0.1:9464', "o'brien", 'p'),
    `curl -X POST -H 'content-type: application/json' -d '{"target":"o'\\''brien","probe":"p"}' http://127.0.0.1:9464/probe`,
  );
});

test('CSRF tokens: bound to the session and the process key, compared whole', () => {
  const tokens = new CsrfTokens();
  const mine = tokens.token('v2.session-a');
  assert.ok(tokens.valid(mine, 'v2.session-a'));
  assert.ok(!tokens.valid(mine, 'v2.session-b'), "another session's token");
  assert.ok(!tokens.valid(mine, undefined));
  assert.ok(!tokens.valid(new CsrfTokens().token('v2.session-a'), 'v2.session-a'), 'a token of another process (a restart)');
  for (const bad of [undefined, '', mine.slice(0, -1), `${mine}x`, 42, 'x'.repeat(1000)]) assert.ok(!tokens.valid(bad, 'v2.session-a'));
  assert.ok(tokens.valid(tokens.token(undefined), undefined), 'without a session (no token set)');
});
