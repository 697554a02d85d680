// The pages and POST /probe through the app (inject): content negotiation, escaping, the CSP,
// the index's verdicts and button, and the browser session when a token is set. The same
// pages in a real browser: test/integration/pages.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_LOOP_MARKS } from '../../src/http/markOutput.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FORM = 'application/x-www-form-urlencoded';
const HEALTHY = healthyProse(2500, 7);
const HOSTILE_UNIT = 'Loop <script>globalThis.pwned=1</script><img src=x onerror=alert(1)> again. ';
const COLLAPSED = `${healthyProse(900, 3)}\n\n${HOSTILE_UNIT.repeat(120)}`;
const HUGE_LOOP = `${healthyProse(900, 4)}\n\n${'Same line again.\n'.repeat(20_000)}`;

/** The CSRF token of the index page's run buttons, as the browser holding `cookie` is served it. */
async function csrfOf(
  app: { inject: (o: { url: string; headers: Record<string, string> }) => Promise<{ body: string }> },
  cookie?: string,
) {
  const page = await app.inject({ url: '/', headers: cookie ? { cookie } : {} });
  const m = /name="csrf" value="([^"]+)"/.exec(page.body);
  assert.ok(m, 'the index page has a run button with its csrf field');
  return m[1]!;
}

function setup(authToken: string | null = null) {
  const stream = fakeStream({
    healthy: { content: HEALTHY, ttftSeconds: 0.0028309250000002066, durationSeconds: 2.0000000000000004 },
    collapse: { content: COLLAPSED },
    huge: { content: HUGE_LOOP, outputTokens: 50_000 },
    down: { content: '', error: { type: 'connect', message: 'connection refused <ECONNREFUSED>' }, httpStatus: null, outputTokens: 0 },
  });
  const config = testConfig({
    server: {
      host: '127.0.0.1',
      port: 0,
      authToken,
      metricsAuth: false,
      maxConcurrentManualRuns: 4,
      maxConcurrentSamples: 16,
      allowedHosts: null,
      trustProxy: [],
    },
    targets: [
      testTarget({ name: 'good', model: 'healthy', baseUrl: 'http://127.0.0.1:1/v1' }),
      testTarget({ name: 'bad<i>', model: 'collapse' }),
      testTarget({ name: 'huge', model: 'huge', probes: ['short'] }),
      testTarget({ name: 'down', model: 'down', probes: ['short'] }),
    ],
  });
  return { ...testApp(config, stream.fn), stream };
}

describe('POST /probe', () => {
  test("takes target and probe from the query string with a JSON body, a JSON body, or the page's form with its CSRF token", async () => {
    const { app, stream } = setup();
    const viaQuery = await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    assert.equal(viaQuery.statusCode, 200, viaQuery.body);
    assert.equal(viaQuery.json().verdict, 'ok');
    const viaJson = await app.inject({ method: 'POST', url: '/probe', payload: { target: 'good', probe: 'long' } });
    assert.equal(viaJson.statusCode, 200, viaJson.body);
    assert.equal(viaJson.json().probe, 'long');
    const viaForm = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=bad%3Ci%3E&probe=short&csrf=${await csrfOf(app)}`,
      headers: { 'content-type': FORM },
    });
    assert.equal(viaForm.statusCode, 200, viaForm.body);
    assert.equal(viaForm.json().target, 'bad<i>');
    assert.equal(viaForm.json().verdict, 'fail');
    const mixed = await app.inject({ method: 'POST', url: '/probe?target=good', payload: { probe: 'short' } });
    assert.equal(mixed.statusCode, 200, mixed.body);
    assert.equal(stream.requests.length, 4);
  });

  test('what a page of another site can send without a preflight starts nothing: GET, a form without the CSRF token, text/plain, no body', async () => {
    const { app, stream } = setup();
    const get = await app.inject('/probe?target=good&probe=short');
    assert.equal(get.statusCode, 405);
    assert.equal(get.headers.allow, 'POST');
    assert.equal(get.json().error.code, 'USE_POST');
    assert.match(
      get.json().error.curl,
      /^curl -X POST -H 'content-type: application\/json' -d '\{"target":"good","probe":"short"\}' http:\/\/localhost:80\/probe$/,
    );
    const head = await app.inject({ method: 'HEAD', url: '/probe?target=good&probe=short' });
    assert.equal(head.statusCode, 405);
    // A browser gets a page naming the run, with the button (and its token) and the curl line.
    const page = await app.inject({ url: '/probe?target=bad%3Ci%3E&probe=short', headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 405);
    assert.match(page.body, /Run probe short on target bad&#60;i&#62;\?/);
    assert.match(page.body, /name="csrf" value="[^"]+"/);
    assert.match(page.body, /curl -X POST/);
    // Unknown names are still named as such (a 404 before the 405).
    assert.equal((await app.inject('/probe?target=nope&probe=short')).statusCode, 404);
    const forms = [
      { payload: 'target=good&probe=short', headers: { 'content-type': FORM } },
      { payload: 'target=good&probe=short&csrf=forged', headers: { 'content-type': FORM } },
      { payload: '{"target":"good","probe":"short"}', headers: { 'content-type': 'text/plain' } },
      { payload: '', headers: {} },
    ];
    const statuses = [];
    for (const f of forms) statuses.push((await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', ...f })).statusCode);
    assert.deepEqual(statuses, [403, 403, 415, 415]);
    // A CORS preflight gets no allow headers: the JSON POST of another origin never leaves the browser.
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/probe',
      headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.ok(!Object.keys(preflight.headers).some((h) => h.startsWith('access-control-')), JSON.stringify(preflight.headers));
    assert.equal(stream.requests.length, 0, 'nothing ran');
  });

  test('missing, conflicting or unknown names are refused with what is wrong', async () => {
    const { app, stream } = setup();
    const missing = await app.inject({ method: 'POST', url: '/probe', payload: { target: 'good' } });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().error.message, /missing parameter probe/);
    const conflict = await app.inject({ method: 'POST', url: '/probe?probe=long', payload: { target: 'good', probe: 'short' } });
    assert.equal(conflict.statusCode, 400);
    assert.match(conflict.json().error.message, /probe is "long" in the query string but "short" in the body/);
    const unknown = await app.inject({ method: 'POST', url: '/probe', payload: { target: 'nope', probe: 'short' } });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.json().error.message, /known: good, bad<i>, huge, down/);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/probe', payload: '[1]', headers: { 'content-type': 'application/json' } })).statusCode,
      400,
    );
    assert.equal(stream.requests.length, 0);
  });

  test('nothing in the request reaches the target but the configured names: no URL, host or field of it', async () => {
    const { app, stream } = setup();
    const res = await app.inject({
      method: 'POST',
      url: '/probe?baseUrl=http://169.254.169.254/&url=http://evil.example/',
      payload: { target: 'good', probe: 'short', baseUrl: 'http://evil.example/v1', model: 'other', headers: { host: 'evil.example' } },
      // an address passes server.allowedHosts; X-Forwarded-Host from a proxy not trusted is ignored
      headers: { host: '203.0.113.9', 'x-forwarded-host': 'evil.example' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(stream.requests.length, 1);
    assert.equal(stream.requests[0]!.url, 'http://127.0.0.1:1/v1/chat/completions');
    assert.equal(stream.requests[0]!.body['model'], 'healthy');
    assert.doesNotMatch(JSON.stringify(stream.requests[0]), /evil|169\.254/);
  });

  test("a browser form gets a 303 to the new run's page; its errors are pages too", async () => {
    const { app, history } = setup();
    const res = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${await csrfOf(app)}`,
      headers: { 'content-type': FORM, accept: BROWSER },
    });
    assert.equal(res.statusCode, 303);
    const id = history.list({ limit: 1 })[0]!.id;
    assert.equal(res.headers.location, `/runs/${id}`);
    const unknown = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=nope&probe=short&csrf=${await csrfOf(app)}`,
      headers: { 'content-type': FORM, accept: BROWSER },
    });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.headers['content-type'] as string, /^text\/html/);
    assert.match(unknown.body, /unknown target &#34;nope&#34;/);
  });

  test("a POST started by another site's page is refused before anything runs", async () => {
    const { app, stream } = setup();
    const res = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${await csrfOf(app)}`,
      headers: { 'content-type': FORM, 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    assert.equal(res.statusCode, 403);
    assert.equal(stream.requests.length, 0);
    const same = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${await csrfOf(app)}`,
      headers: { 'content-type': FORM, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(same.statusCode, 200);
  });

  test('times in the JSON carry no float noise', async () => {
    const { app } = setup();
    const res = await app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} });
    const noisy: number[] = [];
    JSON.parse(res.body, (_k, v: unknown) => {
      if (typeof v === 'number' && !Number.isInteger(v) && Number(v.toPrecision(6)) !== v) noisy.push(v);
      return v;
    });
    assert.deepEqual(noisy, [], 'numbers with more than 6 significant digits');
    assert.match(res.body, /"ttftSeconds":0\.00283093,/);
    assert.match(res.body, /"durationSeconds":2,/);
  });
});

describe('GET /runs/:id', () => {
  test('JSON by default and for JSON clients; the page for a browser or ?format=html', async () => {
    const { app } = setup();
    const id = (await app.inject({ method: 'POST', url: '/probe', payload: { target: 'bad<i>', probe: 'short' } })).json().id as string;
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await app.inject({ url: `/runs/${id}`, headers: accept ? { accept } : {} });
      assert.match(res.headers['content-type'] as string, /^application\/json/, String(accept));
      assert.equal(res.json().samples[0].content, COLLAPSED);
    }
    assert.match(
      (await app.inject({ url: `/runs/${id}?format=json`, headers: { accept: BROWSER } })).headers['content-type'] as string,
      /^application\/json/,
    );
    for (const req of [{ url: `/runs/${id}`, headers: { accept: BROWSER } }, { url: `/runs/${id}?format=html` }]) {
      const res = await app.inject(req);
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^text\/html; charset=utf-8/);
      assert.equal(res.headers['vary'], 'Accept');
    }
    const missing = await app.inject({ url: '/runs/nope', headers: { accept: BROWSER } });
    assert.equal(missing.statusCode, 404);
    assert.match(missing.body, /no run with id &#34;nope&#34;/);
    assert.equal((await app.inject('/runs/x?format=xml')).statusCode, 400);
  });

  test('the page of a failed run marks the onset and the copies of the loop, with reasons and figures', async () => {
    const { app } = setup();
    const run = (await app.inject({ method: 'POST', url: '/probe', payload: { target: 'bad<i>', probe: 'short' } })).json();
    const m = run.samples[0].metrics.content;
    const page = (await app.inject({ url: `/runs/${run.id}?format=html` })).body;
    assert.match(
      page,
      new RegExp(
        `<mark class="onset" id="s0-content-onset" title="collapse onset: char ${m.collapseOnset}, token ${m.collapseOnsetToken}"></mark>`,
      ),
    );
    const copies = page.match(/<mark class="loop( alt)?" data-copy="\d+">/g) ?? [];
    assert.equal(copies.length, m.repeatCount);
    assert.match(page, /href="#s0-content-onset"/);
    for (const reason of run.samples[0].reasons as string[])
      assert.ok(page.includes(reason.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)), reason);
    assert.match(page, /<td>output tokens<\/td><td>\d+<\/td>/);
    assert.match(page, /<td>collapse<\/td><td>sentence_loop at char \d+, token \d+/);
  });

  test('model output is inert: escaped, and the CSP allows no script at all', async () => {
    const { app } = setup();
    const id = (await app.inject({ method: 'POST', url: '/probe', payload: { target: 'bad<i>', probe: 'short' } })).json().id as string;
    const res = await app.inject({ url: `/runs/${id}`, headers: { accept: BROWSER } });
    assert.doesNotMatch(res.body, /<script|<img|<i>/i);
    assert.match(res.body, /&#60;script&#62;globalThis\.pwned=1&#60;\/script&#62;/);
    assert.match(res.body, /bad&#60;i&#62;/);
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /script-src|unsafe-inline|unsafe-eval/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test('the page of an error run shows the error and no output', async () => {
    const { app } = setup();
    const id = (await app.inject({ method: 'POST', url: '/probe', payload: { target: 'down', probe: 'short' } })).json().id as string;
    const res = await app.inject({ url: `/runs/${id}?format=html` });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<span class="v v-error">error<\/span>/);
    assert.match(res.body, /<p class="error">connect: connection refused &#60;ECONNREFUSED&#62;<\/p>/);
    assert.match(res.body, /no content/);
    assert.doesNotMatch(res.body, /class="onset"/);
  });

  test('a loop of 20,000 copies makes a page of a bounded number of elements', async () => {
    const { app } = setup();
    const id = (await app.inject({ method: 'POST', url: '/probe', payload: { target: 'huge', probe: 'short' } })).json().id as string;
    const page = (await app.inject({ url: `/runs/${id}?format=html` })).body;
    assert.equal((page.match(/<mark class="loop/g) ?? []).length, MAX_LOOP_MARKS);
    assert.ok((page.match(/</g) ?? []).length < 1000, `${(page.match(/</g) ?? []).length} tags`);
    assert.ok(page.includes('Same line again.'));
  });
});

describe('the index page', () => {
  test('every target x probe with its last verdict, age, last run and a POST button', async () => {
    const { app, history, stream } = setup();
    await app.inject({ method: 'POST', url: '/probe', payload: { target: 'bad<i>', probe: 'short' } });
    const run = history.list({ limit: 1 })[0]!;
    run.startedAt = new Date(Date.now() - 185_000).toISOString();
    const res = await app.inject({ url: '/', headers: { accept: BROWSER } });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-security-policy'] as string, /default-src 'none'/);
    const row = (target: string, probe: string) =>
      res.body.split('\n').find((l) => l.includes(`<tr data-target="${target}" data-probe="${probe}">`)) ?? '';
    const bad = row('bad&#60;i&#62;', 'short');
    assert.match(bad, /<td class="verdict"><span class="v v-fail">fail<\/span><\/td>/);
    assert.match(
      bad,
      new RegExp(
        `<time datetime="${run.startedAt}" title="${run.startedAt}">3 min ago</time> <span class="muted">${run.startedAt.slice(0, 19)}Z</span>`,
      ),
    );
    assert.match(bad, new RegExp(`<a href="/runs/${run.id}">last run</a>`));
    assert.match(
      bad,
      /<form class="inline" method="post" action="\/probe"><input type="hidden" name="target" value="bad&#60;i&#62;"><input type="hidden" name="probe" value="short"><input type="hidden" name="csrf" value="[\w-]{43}"><button type="submit">run now<\/button><\/form>/,
    );
    assert.match(row('good', 'short'), /v-none">none<.*never/);
    assert.equal(row('huge', 'long'), '', 'only the probes a target runs');
    // While a run is in flight its row says so instead of offering the button.
    stream.hold();
    const running = app.inject({ method: 'POST', url: '/probe', payload: { target: 'good', probe: 'long' } });
    await new Promise((r) => setTimeout(r, 20));
    const during = await app.inject('/');
    assert.match(during.body.split('\n').find((l) => l.includes('data-target="good" data-probe="long"')) ?? '', /running…/);
    stream.release();
    await running;
  });
});

describe('with server.authToken set', () => {
  const TOKEN = 'page-token-0123456789abcdef';
  const login = async (app: ReturnType<typeof setup>['app'], token: string, next = '/') =>
    app.inject({
      method: 'POST',
      url: '/-/login',
      payload: `token=${encodeURIComponent(token)}&next=${encodeURIComponent(next)}`,
      headers: { 'content-type': FORM, accept: BROWSER },
    });

  test('a browser without a session gets the login form (401); JSON clients the JSON 401', async () => {
    const { app } = setup(TOKEN);
    const page = await app.inject({ url: '/runs/run-1', headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 401);
    assert.match(page.body, /<form method="post" action="\/-\/login">/);
    assert.match(page.body, /name="next" value="\/runs\/run-1"/);
    assert.match(page.headers['content-security-policy'] as string, /form-action 'self'/);
    const index = await app.inject({ url: '/', headers: { accept: BROWSER } });
    assert.equal(index.statusCode, 401);
    assert.match(index.body, /type="password" name="token"/);
    const api = await app.inject({ method: 'POST', url: '/probe?target=good&probe=short' });
    assert.equal(api.statusCode, 401);
    assert.equal(api.json().error.code, 'UNAUTHORIZED');
    const bearer = await app.inject({
      method: 'POST',
      url: '/probe?target=good&probe=short',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(bearer.statusCode, 200, 'the header still works for POST');
  });

  test('logging in trades the token for a cookie that is not the token; the cookie opens the pages and the button', async () => {
    const { app } = setup(TOKEN);
    const wrong = await login(app, 'not-the-token-0123456789');
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, /That is not the token/);
    assert.equal(wrong.headers['set-cookie'], undefined);

    const ok = await login(app, TOKEN, '/runs?target=good');
    assert.equal(ok.statusCode, 303);
    assert.equal(ok.headers.location, '/runs?target=good');
    const setCookie = String(ok.headers['set-cookie']);
    assert.match(setCookie, /^coherency_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.ok(!setCookie.includes(TOKEN), 'the cookie does not carry the token');
    const cookie = setCookie.split(';')[0]!;

    assert.equal((await app.inject({ url: '/', headers: { cookie, accept: BROWSER } })).statusCode, 200);
    assert.match((await app.inject({ url: '/', headers: { cookie } })).body, /log out/);
    const posted = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${await csrfOf(app, cookie)}`,
      headers: { cookie, 'content-type': FORM, accept: BROWSER },
    });
    assert.equal(posted.statusCode, 303);
    // A token of the right shape that is not this session's starts nothing.
    const stale = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${'A'.repeat(43)}`,
      headers: { cookie, 'content-type': FORM },
    });
    assert.equal(stale.statusCode, 403);
    assert.equal(stale.json().error.code, 'CSRF_TOKEN_REQUIRED');
    const page = await app.inject({ url: posted.headers.location as string, headers: { cookie, accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<span class="v v-ok">ok<\/span>/);
    // Sent from another site's page the cookie counts for nothing.
    const cross = await app.inject({
      method: 'POST',
      url: '/probe',
      payload: `target=good&probe=short&csrf=${await csrfOf(app, cookie)}`,
      headers: { cookie, 'content-type': FORM, 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(cross.statusCode, 403);

    const out = await app.inject({ method: 'POST', url: '/-/logout', headers: { cookie } });
    assert.equal(out.statusCode, 303);
    assert.match(String(out.headers['set-cookie']), /^coherency_session=; Max-Age=0/);
  });

  test('a new token ends every session; a login never redirects off the server', async () => {
    const { app, service } = setup(TOKEN);
    const cookie = String((await login(app, TOKEN)).headers['set-cookie']).split(';')[0]!;
    assert.equal((await app.inject({ url: '/', headers: { cookie } })).statusCode, 200);
    const config = service.currentConfig;
    service.setConfig({ ...config, server: { ...config.server, authToken: 'rotated-token-0123456789' } });
    assert.equal((await app.inject({ url: '/', headers: { cookie } })).statusCode, 401);
    const offsite = await login(app, 'rotated-token-0123456789', '//evil.example/x');
    assert.equal(offsite.headers.location, '/');
  });
});
