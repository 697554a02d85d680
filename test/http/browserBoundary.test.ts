// The browser boundary and DNS rebinding, as pure tables (issue 19, item 3).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultHostNames, hostAllowed, hostName, hostRule } from '../../src/http/allowedHosts.js';
import { crossOriginRefusal, type FetchHeaders } from '../../src/http/browserBoundary.js';

const OWN = 'http://127.0.0.1:9464';

describe('crossOriginRefusal', () => {
  const cases: Array<[name: string, headers: FetchHeaders, getStartsWork: boolean, refused: boolean]> = [
    ['curl, Prometheus, a script: no browser headers', {}, true, false],
    ['typed in the address bar', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, true, false],
    [
      'a link or form of our own page',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      true,
      false,
    ],
    ['fetch() of our own page', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }, true, false],
    ['an <img> on another site', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, true, true],
    ['an <img> of our own origin', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }, true, true],
    ['a <script> of our own origin', { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'script' }, true, true],
    [
      'an <iframe> of our own origin',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      true,
      true,
    ],
    [
      'a same-origin image of a POST route (not a run by GET)',
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'image' },
      false,
      false,
    ],
    ['another port of the host, or a sibling subdomain', { 'sec-fetch-site': 'same-site' }, false, true],
    ['another site', { 'sec-fetch-site': 'cross-site' }, false, true],
    ['Sec-Fetch-Site in capitals', { 'sec-fetch-site': 'Cross-Site' }, false, true],
    ['an old browser: Origin of another site', { origin: 'https://evil.example' }, false, true],
    ['an old browser: Origin of another port', { origin: 'http://127.0.0.1:8080' }, false, true],
    ['an old browser: Origin null (a sandboxed frame)', { origin: 'null' }, false, true],
    ['an old browser: our own Origin', { origin: 'http://127.0.0.1:9464' }, false, false],
    ['an old browser: only a Referer of another site', { referer: 'https://evil.example/page' }, false, true],
    ['an old browser: only a Referer of our own', { referer: 'http://127.0.0.1:9464/runs?x=1' }, false, false],
    [
      'Sec-Fetch-Site same-origin wins over a stray Origin',
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
      false,
      false,
    ],
  ];
  for (const [name, headers, getStartsWork, refused] of cases) {
    test(`${refused ? 'refuses' : 'lets through'}: ${name}`, () => {
      const why = crossOriginRefusal(headers, OWN, getStartsWork);
      assert.equal(why !== null, refused, why ?? 'not refused');
    });
  }
});

describe('allowedHosts', () => {
  test('the default names: localhost and its subdomains, the machine, the listen host when it is a name', () => {
    assert.deepEqual(defaultHostNames('127.0.0.1', 'box1'), ['localhost', '*.localhost', 'box1']);
    assert.deepEqual(defaultHostNames('exporter.internal', 'box1'), ['localhost', '*.localhost', 'box1', 'exporter.internal']);
    assert.deepEqual(defaultHostNames('::', ''), ['localhost', '*.localhost']);
  });
  test('host names are compared without port, case or trailing dot; addresses always pass; * passes all', () => {
    const rule = hostRule(defaultHostNames('0.0.0.0', 'box1').concat(['*.example.com']));
    const cases: Array<[string | undefined, boolean]> = [
      ['localhost:9464', true],
      ['LOCALHOST', true],
      ['app.localhost:9464', true],
      ['box1:9464', true],
      ['box1.:9464', true],
      ['127.0.0.1:9464', true],
      ['10.1.2.3', true],
      ['[::1]:9464', true],
      ['[fd00::5]', true],
      ['a.example.com:9464', true],
      ['example.com', false],
      ['rebind.attacker.example:9464', false],
      ['127.0.0.1.nip.io:9464', false],
      ['localhost.attacker.example', false],
      [undefined, true],
    ];
    for (const [host, ok] of cases) assert.equal(hostAllowed(host, rule), ok, String(host));
    assert.equal(hostAllowed('anything.example', hostRule(['*'])), true);
    assert.equal(hostName('[::1]:80'), '::1');
  });
});
