import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAge } from '../../src/http/formatAge.js';
import { escapeHtml } from '../../src/http/htmlPage.js';
import { roundNumbers, toJson } from '../../src/http/jsonReply.js';
import { MAX_LOOP_MARKS, markOutput } from '../../src/http/markOutput.js';
import { prefersHtml } from '../../src/http/prefersHtml.js';
import { safeNext } from '../../src/http/renderLogin.js';
import { cookieValue, SESSION_COOKIE, SESSION_SECONDS, SessionStore, sessionCookie } from '../../src/http/sessions.js';

/** The text of marked-up output: tags dropped, entities decoded. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)));

describe('prefersHtml', () => {
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
  test('a browser navigation gets HTML; curl, fetch and JSON clients get JSON', () => {
    assert.equal(prefersHtml(BROWSER), true);
    assert.equal(prefersHtml('*/*'), false);
    assert.equal(prefersHtml(undefined), false);
    assert.equal(prefersHtml(''), false);
    assert.equal(prefersHtml('application/json'), false);
    assert.equal(prefersHtml('application/json, text/html;q=0.5'), false);
    assert.equal(prefersHtml('text/html;q=0.9, application/json'), false);
    assert.equal(prefersHtml('TEXT/HTML'), true);
    assert.equal(prefersHtml('text/html;q=0'), false);
  });
  test('format=html|json overrides the Accept header', () => {
    assert.equal(prefersHtml(BROWSER, 'json'), false);
    assert.equal(prefersHtml('*/*', 'html'), true);
    assert.equal(prefersHtml(BROWSER, 'xml'), true, 'an unknown format leaves it to Accept');
  });
});

describe('JSON numbers', () => {
  test('non-integers keep 6 significant digits; integers, strings and null pass', () => {
    assert.equal(roundNumbers('ttftSeconds', 0.0028309250000002066), 0.00283093);
    assert.equal(roundNumbers('tokensPerSecond', 7558.479682595911), 7558.48);
    assert.equal(roundNumbers('durationSeconds', 0.412), 0.412);
    assert.equal(roundNumbers('outputTokens', 3000), 3000);
    assert.equal(roundNumbers('x', 12345678901), 12345678901);
    assert.equal(roundNumbers('s', '0.0028309250000002066'), '0.0028309250000002066');
    assert.equal(roundNumbers('n', null), null);
    assert.equal(toJson({ a: [0.1 + 0.2, { b: 1 / 3 }], c: 'text', d: 2 }), '{"a":[0.3,{"b":0.333333}],"c":"text","d":2}');
  });
});

describe('formatAge', () => {
  test('seconds, minutes, hours and days ago', () => {
    assert.equal(formatAge(-3), 'just now', 'a clock a little behind');
    assert.equal(formatAge(2), 'just now');
    assert.equal(formatAge(42.7), '42 s ago');
    assert.equal(formatAge(185), '3 min ago');
    assert.equal(formatAge(5 * 3600 + 10), '5 h ago');
    assert.equal(formatAge(3 * 86400), '3 d ago');
    assert.equal(formatAge(Number.NaN), 'just now');
  });
});

describe('markOutput', () => {
  const head = 'Some healthy text first. ';
  const unit = 'Loop <b>unit</b> & "again". ';
  const text = head + unit.repeat(5);
  const loop = { start: head.length, period: unit.length, end: text.length };

  test('marks the onset and each copy of the unit, and keeps the text exactly', () => {
    const html = markOutput(text, { onset: head.length, loop, id: 's0-content', onsetTitle: 'onset' });
    assert.equal(textOf(html), text);
    assert.equal((html.match(/<mark class="onset" id="s0-content-onset"/g) ?? []).length, 1);
    const copies = [...html.matchAll(/<mark class="loop( alt)?" data-copy="(\d+)">(.*?)<\/mark>/g)];
    assert.equal(copies.length, 5);
    assert.deepEqual(
      copies.map((c) => textOf(c[3]!)),
      Array(5).fill(unit),
    );
    assert.deepEqual(
      copies.map((c) => Boolean(c[1])),
      [false, true, false, true, false],
    );
    assert.ok(html.indexOf('class="onset"') < html.indexOf('class="loop"'), 'the onset mark comes before the first copy');
    assert.doesNotMatch(html, /<b>/, 'the text is escaped');
  });

  test('an onset inside a copy splits that copy without losing text', () => {
    const onset = head.length + unit.length + 5;
    const html = markOutput(text, { onset, loop, id: 'x', onsetTitle: '' });
    assert.equal(textOf(html), text);
    assert.match(
      html,
      /<mark class="loop alt" data-copy="2">Loop <\/mark><mark class="onset"[^>]*><\/mark><mark class="loop alt" data-copy="2">/,
    );
  });

  test(`a huge loop makes at most ${MAX_LOOP_MARKS} marks; the rest is one element`, () => {
    const big = head + 'ab'.repeat(500_000);
    const html = markOutput(big, { onset: head.length, loop: { start: head.length, period: 2, end: big.length }, id: 'x', onsetTitle: '' });
    assert.equal((html.match(/<mark class="loop/g) ?? []).length, MAX_LOOP_MARKS);
    assert.equal((html.match(/<span class="loop-rest">/g) ?? []).length, 1);
    assert.equal(textOf(html), big);
  });

  test('no onset and no loop: just the escaped text; offsets past the end are ignored; surrogate pairs stay whole', () => {
    assert.equal(
      markOutput('<script>alert(1)</script>', { onset: -1, loop: null, id: 'x', onsetTitle: '' }),
      escapeHtml('<script>alert(1)</script>'),
    );
    assert.equal(markOutput('abc', { onset: 99, loop: { start: 50, period: 3, end: 80 }, id: 'x', onsetTitle: '' }), 'abc');
    const emoji = 'x' + '\u{1F600}y'.repeat(4);
    const html = markOutput(emoji, { onset: -1, loop: { start: 2, period: 3, end: emoji.length }, id: 'x', onsetTitle: '' });
    assert.equal(textOf(html), emoji);
    for (const m of html.matchAll(/<mark[^>]*>(.*?)<\/mark>/g))
      assert.ok(!/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(m[1]!), `a mark splits a pair: ${JSON.stringify(m[1])}`);
  });

  test('escapes the id and title', () => {
    const html = markOutput('abc', { onset: 1, loop: null, id: '"x', onsetTitle: '<t>' });
    assert.match(html, /id="&#34;x-onset" title="&#60;t&#62;"/);
  });
});

describe('sessions', () => {
  const token = 'session-token-0123456789';
  const now = Date.parse('2026-01-01T00:00:00Z');
  test('a session cookie holds a random id, never the token; it lasts 12 h, ends at logout and with a new token', () => {
    const store = new SessionStore();
    const value = store.create(token, now);
    const header = sessionCookie(value, false);
    assert.match(header, /^coherency_session=v2\.[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    assert.ok(!header.includes(token));
    assert.match(sessionCookie(value, true), /; Secure$/);
    const cookie = `other=1; ${SESSION_COOKIE}=${value}; x=y`;
    assert.equal(store.valid(cookie, token, now + 1000), true);
    assert.equal(store.valid(undefined, token, now), false);
    assert.equal(store.valid(`${SESSION_COOKIE}=${token}`, token, now), false, 'the token itself is not a session');
    assert.equal(store.valid(`${SESSION_COOKIE}=v2.${'A'.repeat(43)}`, token, now), false, 'a made-up id is not a session');

    const later = store.create(token, now - 1000);
    assert.equal(store.valid(`${SESSION_COOKIE}=${later}`, token, now - 1000 + SESSION_SECONDS * 1000 + 1), false, 'expired');
    const other = store.create(token, now);
    store.revoke(`${SESSION_COOKIE}=${other}`);
    assert.equal(store.valid(`${SESSION_COOKIE}=${other}`, token, now), false, 'revoked at logout');
    assert.equal(store.valid(cookie, token, now), true, 'other sessions live on');
    assert.equal(store.valid(cookie, 'another-token-0123456789', now), false, 'the token changed');
    assert.equal(store.valid(cookie, token, now), false, 'and stays ended when the token changes back');
    assert.equal(store.size, 0);
    assert.equal(cookieValue('a=1; b = 2', 'b'), '2');
  });
  test('after logging in, only a local path is followed', () => {
    assert.equal(safeNext('/runs/abc?format=html'), '/runs/abc?format=html');
    for (const bad of ['//evil.example/', '/\\evil.example', 'https://evil.example/', 'runs', '', undefined, 42, '/a\nb'])
      assert.equal(safeNext(bad), '/', String(bad));
  });
});
