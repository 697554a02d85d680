// The gate of the request log and the limiter's lines (issue 34, part 4): at most one line a
// minute per kind with the count held back, URLs cut; then through the app, floods of 404, 403,
// 405, 421 and 415 answers write a line a minute each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LOGGED_URL_CHARS, LogGate, loggedUrl, OTHER_KIND } from '../../src/http/logGate.js';
import { captureLogger } from '../helpers/captureLogger.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

describe('LogGate', () => {
  test('one line a minute per kind, then the count held back', () => {
    const gate = new LogGate();
    assert.equal(gate.pass('404 (no route)', 0), 0);
    for (let i = 0; i < 999; i++) assert.equal(gate.pass('404 (no route)', 1000 + i), null);
    assert.equal(gate.pass('403 /probe', 5000), 0, 'another kind has its own minute');
    assert.equal(gate.pass('404 (no route)', 59_999), null);
    assert.equal(gate.pass('404 (no route)', 60_000), 1000);
    assert.equal(gate.pass('404 (no route)', 120_000), 0);
  });

  test('kinds beyond maxKinds share one, so the number of lines stays bounded', () => {
    const gate = new LogGate({ maxKinds: 3 });
    const passed = Array.from({ length: 100 }, (_, i) => gate.pass(`kind-${i}`, 0)).filter((p) => p !== null);
    assert.equal(passed.length, 4, 'three kinds and the shared one');
    assert.equal(gate.size, 4);
    assert.equal(gate.pass(OTHER_KIND, 60_000), 96);
  });

  test('bad options are named', () => {
    assert.throws(() => new LogGate({ maxKinds: 0 }), /maxKinds must be >= 1, got 0/);
    assert.throws(() => new LogGate({ everyMs: Number.NaN }), /everyMs must be >= 0, got NaN/);
  });

  test('URLs are cut to LOGGED_URL_CHARS, saying how much was left out', () => {
    assert.equal(loggedUrl('/runs'), '/runs');
    const long = `/${'x'.repeat(15_000)}`;
    assert.equal(loggedUrl(long), `${long.slice(0, LOGGED_URL_CHARS)}…(${15_001 - LOGGED_URL_CHARS} more chars)`);
  });
});

describe('the request log under a flood', () => {
  function setup() {
    const stream = fakeStream({ healthy: { content: healthyProse(300, 2) } });
    const config = testConfig({ targets: [testTarget({ name: 'good', model: 'healthy' })] });
    const log = captureLogger();
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const t = testApp(config, stream.fn, { logger: log.logger, now: () => clock });
    const warnLines = () =>
      log
        .text()
        .split('\n')
        .filter((l) => l !== '' && (JSON.parse(l) as { level: number }).level >= 40);
    return { ...t, stream, warnLines, advance: (ms: number) => (clock += ms) };
  }

  test('200 each of 404, 403, 405, 415 and 421 with 15 KB URLs: one line a minute per kind, URLs cut', async () => {
    const t = setup();
    const pad = 'x'.repeat(15_000);
    const kinds: [string, Record<string, unknown>][] = [
      ['404', { url: `/nothing-here?${pad}` }],
      [
        '403',
        {
          url: `/probe?target=good&probe=short&${pad}`,
          headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', 'sec-fetch-mode': 'no-cors' },
        },
      ],
      ['405', { url: `/probe?target=good&probe=short&${pad}` }],
      ['415', { method: 'POST', url: `/probe?target=good&probe=short&${pad}`, payload: 'x', headers: { 'content-type': 'text/plain' } }],
      ['421', { url: `/runs?${pad}`, headers: { host: 'rebind.attacker.example' } }],
    ];
    for (const [status, options] of kinds) {
      for (let i = 0; i < 200; i++) {
        const res = await t.app.inject(options);
        assert.equal(String(res.statusCode), status);
      }
    }
    const lines = t.warnLines();
    assert.equal(lines.length, kinds.length, lines.map((l) => l.slice(0, 120)).join('\n'));
    for (const line of lines) assert.ok(line.length < 1000, `a line of ${line.length} chars`);
    // A minute later each kind's next line says how many were held back.
    t.advance(60_000);
    await t.app.inject(kinds[0]![1]);
    const next = t.warnLines().at(-1)!;
    assert.match(next, /"heldBack":199/);
    assert.match(next, /199 more like it since the last line/);
    assert.equal(t.stream.requests.length, 0, 'nothing ran');
  });
});
