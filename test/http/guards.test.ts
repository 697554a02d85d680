// The guards of the HTTP app through inject (issue 19, items 3 and 4): the browser boundary on
// every route that starts work or changes state, server.allowedHosts against DNS rebinding on
// every route, the limiter on wrong tokens, sessions that end server-side, Secure behind a
// trusted proxy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../../src/config/types.js';
import { AUTH_FAILURES_PER_MINUTE, AUTH_FAILURES_PER_MINUTE_ALL } from '../../src/http/buildApp.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const TOKEN = 'guard-token-0123456789abcdef';
const FORM = 'application/x-www-form-urlencoded';

function setup(server: Partial<Config['server']> = {}) {
  const stream = fakeStream({ healthy: { content: healthyProse(300, 2) } });
  const config = testConfig({ targets: [testTarget({ name: 'good', model: 'healthy' })] });
  config.server = { ...config.server, ...server };
  const log = captureLogger();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const reloads: number[] = [];
  const t = testApp(config, stream.fn, {
    logger: log.logger,
    now: () => clock,
    hostNames: ['localhost', 'box1'],
    listenHost: 'listen.example',
    reload: async () => {
      reloads.push(1);
      return { ok: true };
    },
  });
  return { ...t, stream, log, reloads, config, advance: (ms: number) => (clock += ms) };
}

const counter = async (t: ReturnType<typeof setup>, name: 'authFailures' | 'authThrottled') =>
  Object.fromEntries((await t.metrics[name].get()).values.map((v) => [v.labels['method'], v.value]));

describe('the browser boundary', () => {
  test('GET /probe as an image, script or frame is refused, from another site or our own; typed in the address bar it only names the run', async () => {
    const t = setup();
    const embedded = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of embedded) {
      const res = await t.app.inject({ url: '/probe?target=good&probe=short', headers });
      assert.equal(res.statusCode, 403, JSON.stringify(headers));
      assert.equal(res.json().error.code, 'CROSS_ORIGIN');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/probe?target=good&probe=short', headers: embedded[1] });
    assert.equal(head.statusCode, 403, 'HEAD runs the GET route: refused the same way');
    assert.equal(t.stream.requests.length, 0, 'nothing ran');
    assert.equal((await t.app.inject({ method: 'POST', url: '/probe?target=good&probe=short', payload: {} })).statusCode, 200, 'curl');
    const typed = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    assert.equal((await t.app.inject({ url: '/probe?target=good&probe=short', headers: typed })).statusCode, 405, 'the address bar');
    assert.equal(t.stream.requests.length, 1, 'only the POST ran');
  });

  test('POST /probe, /-/reload, /-/login and /-/logout: only same-origin, none or no browser headers; Origin and Referer when Sec-Fetch is absent', async () => {
    const t = setup({ authToken: TOKEN });
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const routes = [
      { url: '/probe?target=good&probe=short', headers: bearer },
      { url: '/-/reload', headers: bearer },
      { url: '/-/login', headers: { 'content-type': FORM }, payload: `token=${TOKEN}` },
      { url: '/-/logout', headers: {} },
    ];
    const refused = [
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://localhost:8080' },
      { origin: 'null' },
      { referer: 'https://sibling.localhost/page' },
    ];
    const allowed = [{}, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { origin: 'http://localhost:80' }];
    for (const r of routes) {
      for (const h of refused) {
        const res = await t.app.inject({ method: 'POST', url: r.url, headers: { ...r.headers, ...h }, payload: r.payload });
        assert.equal(res.statusCode, 403, `${r.url} ${JSON.stringify(h)}`);
      }
      for (const h of allowed) {
        const res = await t.app.inject({ method: 'POST', url: r.url, headers: { ...r.headers, ...h }, payload: r.payload });
        assert.ok([200, 303].includes(res.statusCode), `${r.url} ${JSON.stringify(h)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    assert.equal(t.reloads.length, allowed.length, 'only the allowed reloads ran');
    assert.equal(t.stream.requests.length, allowed.length, 'only the allowed probes ran');
  });
});

describe('server.allowedHosts', () => {
  // the pages too: the /runs table of issue 21 (and its filter form's query) holds every run's verdicts
  const routes = [
    '/',
    '/runs',
    '/runs?format=html',
    '/runs?target=good&verdict=fail&format=html',
    '/runs/x',
    '/runs/x?format=html',
    '/metrics',
    '/-/healthy',
    '/-/ready',
    '/-/login',
    '/probe?target=good&probe=short',
    '/nowhere',
  ];

  test('a rebound DNS name gets 421 on every route; our names and any IP address are answered', async () => {
    const t = setup();
    for (const url of routes) {
      for (const host of ['rebind.attacker.example:9464', '127.0.0.1.nip.io:9464']) {
        const res = await t.app.inject({ url, headers: { host, 'sec-fetch-site': 'same-origin' } });
        assert.equal(res.statusCode, 421, `${url} as ${host}`);
        assert.equal(res.json().error.code, 'HOST_NOT_ALLOWED');
      }
    }
    const reload = await t.app.inject({ method: 'POST', url: '/-/reload', headers: { host: 'rebind.attacker.example' } });
    assert.equal(reload.statusCode, 421);
    assert.equal(t.stream.requests.length, 0);
    assert.equal(t.reloads.length, 0);
    for (const host of ['localhost:9464', 'box1:9464', '127.0.0.1:9464', '10.0.0.7:9464', '[::1]:9464']) {
      assert.equal((await t.app.inject({ url: '/-/healthy', headers: { host } })).statusCode, 200, host);
    }
  });

  test('X-Forwarded-Host is checked beside Host, never instead of it, and only from a trusted proxy', async () => {
    // trustProxy covers the browser's own address (inject comes from 127.0.0.1)
    const t = setup({ trustProxy: ['127.0.0.0/8'] });
    const status = async (headers: Record<string, string>) => (await t.app.inject({ url: '/-/healthy', headers })).statusCode;
    assert.equal(await status({ host: 'rebind.attacker.example:9464', 'x-forwarded-host': 'localhost:9464' }), 421, 'a rebound page');
    assert.equal(await status({ host: 'localhost:9464', 'x-forwarded-host': 'rebind.attacker.example' }), 421);
    assert.equal(await status({ host: '10.0.0.7:9464', 'x-forwarded-host': 'box1' }), 200, 'a proxy passing the public name');
    const untrusted = setup();
    const res = await untrusted.app.inject({
      url: '/-/healthy',
      headers: { host: 'localhost', 'x-forwarded-host': 'rebind.attacker.example' },
    });
    assert.equal(res.statusCode, 200, 'ignored from an address not in trustProxy');
  });

  test('a list replaces the default names; [*] turns the check off; a reload applies at once', async () => {
    const t = setup({ allowedHosts: ['coherency.example.com', '*.svc.cluster.local'] });
    const status = async (host: string) => (await t.app.inject({ url: '/-/healthy', headers: { host } })).statusCode;
    assert.equal(await status('coherency.example.com'), 200);
    assert.equal(await status('exporter.monitoring.svc.cluster.local:9464'), 200);
    assert.equal(await status('localhost'), 421, 'the default names are replaced');
    assert.equal(await status('listen.example'), 200, 'the listen host stays one of its names');
    assert.equal(await status('10.0.0.7'), 200);
    t.service.setConfig({ ...t.config, server: { ...t.config.server, allowedHosts: ['*'] } });
    assert.equal(await status('rebind.attacker.example'), 200);
  });
});

describe('wrong tokens', () => {
  test('1,000 wrong bearer tokens in a loop: 401 up to the limit, then 429 with Retry-After; the right token still passes; a few log lines', async () => {
    const t = setup({ authToken: TOKEN });
    const statuses = new Map<number, number>();
    let retryAfter = '';
    for (let i = 0; i < 1000; i++) {
      const res = await t.app.inject({ url: '/runs', headers: { authorization: `Bearer wrong-token-${i}-0123456789` } });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
    }
    assert.deepEqual(Object.fromEntries(statuses), { 401: AUTH_FAILURES_PER_MINUTE, 429: 1000 - AUTH_FAILURES_PER_MINUTE });
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
    const right = await t.app.inject({ url: '/runs', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(right.statusCode, 200, 'the right token is never refused (a guesser sharing the address kept Prometheus out)');
    const lines = t.log
      .text()
      .trim()
      .split('\n')
      .filter((l) => /wrong credentials/.test(l));
    assert.equal(lines.length, 1, 'one line for the minute');
    assert.match(lines[0]!, /"failures":1,"refused":0/);
    assert.deepEqual(await counter(t, 'authFailures'), { bearer: AUTH_FAILURES_PER_MINUTE });
    assert.deepEqual(await counter(t, 'authThrottled'), { bearer: 1000 - AUTH_FAILURES_PER_MINUTE });

    // a minute later the address may try again, and the next line sums up the minute
    t.advance(60_000);
    assert.equal((await t.app.inject({ url: '/runs', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
    await t.app.inject({ url: '/runs', headers: { authorization: 'Bearer still-wrong-0123456789' } });
    const later = t.log
      .text()
      .trim()
      .split('\n')
      .filter((l) => /wrong credentials/.test(l));
    assert.equal(later.length, 2);
    assert.match(later[1]!, /"failures":10,"refused":990,"addresses":1/);
  });

  test('rotating addresses: all of them together get AUTH_FAILURES_PER_MINUTE_ALL answers of 401 a minute, one log line; the right token passes', async () => {
    const t = setup({ authToken: TOKEN });
    const statuses = new Map<number, number>();
    for (let a = 0; a < 50; a++) {
      for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++) {
        const res = await t.app.inject({
          url: '/runs',
          remoteAddress: `198.51.100.${a}`,
          headers: { authorization: `Bearer wrong-${a}-${i}-0123456789` },
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    }
    assert.deepEqual(Object.fromEntries(statuses), {
      401: AUTH_FAILURES_PER_MINUTE_ALL,
      429: 50 * AUTH_FAILURES_PER_MINUTE - AUTH_FAILURES_PER_MINUTE_ALL,
    });
    const fresh = await t.app.inject({
      url: '/runs',
      remoteAddress: '203.0.113.1',
      headers: { authorization: 'Bearer wrong-fresh-0123456789' },
    });
    assert.equal(fresh.statusCode, 429, 'a new address is limited too while the shared bucket is empty');
    for (const remoteAddress of ['203.0.113.1', '198.51.100.0']) {
      const right = await t.app.inject({ url: '/runs', remoteAddress, headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(right.statusCode, 200, remoteAddress);
    }
    const lines = t.log
      .text()
      .split('\n')
      .filter((l) => /wrong credentials/.test(l));
    assert.equal(lines.length, 1, 'one line for the minute, whatever the number of addresses');
    // A minute refills the shared bucket.
    t.advance(60_000);
    const later = await t.app.inject({
      url: '/runs',
      remoteAddress: '203.0.113.2',
      headers: { authorization: 'Bearer wrong-later-0123456789' },
    });
    assert.equal(later.statusCode, 401);
  });

  test('the login form is limited the same way, per client address', async () => {
    const t = setup({ authToken: TOKEN });
    const login = (token: string, remoteAddress = '127.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/-/login', remoteAddress, headers: { 'content-type': FORM }, payload: `token=${token}` });
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++) assert.equal((await login(`wrong-${i}-0123456789abc`)).statusCode, 401);
    const limited = await login('wrong-again-0123456789');
    assert.equal(limited.statusCode, 429);
    assert.ok(limited.headers['retry-after']);
    assert.equal((await login(TOKEN)).statusCode, 303, 'the right token still logs in');
    assert.equal((await login('wrong-again-0123456789', '192.0.2.8')).statusCode, 401, 'another address is not limited');
  });
});

describe('sessions', () => {
  const login = (t: ReturnType<typeof setup>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/-/login', headers: { 'content-type': FORM, ...headers }, payload: `token=${TOKEN}` });
  const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

  test('logout ends the session on the server: the old cookie replayed opens nothing', async () => {
    const t = setup({ authToken: TOKEN });
    const cookie = cookieOf(await login(t));
    assert.equal((await t.app.inject({ url: '/runs', headers: { cookie } })).statusCode, 200);
    const out = await t.app.inject({ method: 'POST', url: '/-/logout', headers: { cookie } });
    assert.equal(out.statusCode, 303);
    assert.equal((await t.app.inject({ url: '/runs', headers: { cookie } })).statusCode, 401);
  });

  test('a new token ends every session', async () => {
    const t = setup({ authToken: TOKEN });
    const cookie = cookieOf(await login(t));
    t.service.setConfig({ ...t.config, server: { ...t.config.server, authToken: 'rotated-token-0123456789' } });
    assert.equal((await t.app.inject({ url: '/runs', headers: { cookie } })).statusCode, 401);
  });

  test('Secure when the request came over HTTPS through a proxy in server.trustProxy, not when anyone says so', async () => {
    const viaProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.4' };
    const open = setup({ authToken: TOKEN });
    assert.doesNotMatch(String((await login(open, viaProxy)).headers['set-cookie']), /Secure/, 'an untrusted X-Forwarded-Proto');
    const proxied = setup({ authToken: TOKEN, trustProxy: ['127.0.0.0/8'] });
    assert.match(String((await login(proxied, viaProxy)).headers['set-cookie']), /; Secure$/);
    assert.doesNotMatch(String((await login(proxied)).headers['set-cookie']), /Secure/, 'plain http through the proxy');
    // behind the proxy the limiter counts the client's address, not the proxy's
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE; i++)
      await proxied.app.inject({
        url: '/runs',
        headers: { authorization: 'Bearer wrong-0123456789abcdef', 'x-forwarded-for': '198.51.100.4' },
      });
    const other = await proxied.app.inject({
      url: '/runs',
      headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.100.5' },
    });
    assert.equal(other.statusCode, 200);
    const same = await proxied.app.inject({
      url: '/runs',
      headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '198.51.100.4' },
    });
    assert.equal(same.statusCode, 200, 'the right token passes even from the limited address');
    const wrong = await proxied.app.inject({
      url: '/runs',
      headers: { authorization: 'Bearer wrong-0123456789abcdef', 'x-forwarded-for': '198.51.100.4' },
    });
    assert.equal(wrong.statusCode, 429);
  });
});
