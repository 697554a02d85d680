// Issue 21 §8: /runs is a page for a browser (a table, newest first, filtered by a plain GET
// form), JSON for everyone else; the index shows each pair's last 24 verdicts as a strip of
// cells linking to the runs, the collapse onset on hover. In a real browser:
// test/integration/pages.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HISTORY_CELLS } from '../../src/http/renderIndex.js';
import { fakeStream } from '../helpers/fakeStream.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { healthyProse } from '../helpers/texts.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const LOOP = `${healthyProse(900, 3)}\n\n${'The scheduler retries the job and the job retries the scheduler. '.repeat(120)}`;

function setup() {
  const stream = fakeStream({
    healthy: { content: healthyProse(400, 5) },
    collapse: { content: LOOP },
    down: { content: '', error: { type: 'connect', message: 'connection refused' }, httpStatus: null, outputTokens: 0 },
  });
  const config = testConfig({
    targets: [
      testTarget({ name: 'good', model: 'healthy', probes: ['short'] }),
      testTarget({ name: 'bad<b>', model: 'collapse', probes: ['short'] }),
      testTarget({ name: 'down', model: 'down', probes: ['short'] }),
    ],
    probes: [testProbe({ name: 'short', maxTokens: 3000 })],
  });
  const { app } = testApp(config, stream.fn);
  const probe = (target: string) => app.inject({ method: 'POST', url: '/probe', payload: { target, probe: 'short' } });
  return { app, probe };
}

const rows = (page: string) => [...page.matchAll(/<tr data-verdict="(\w+)" data-target="([^"]*)"/g)].map((m) => `${m[2]} ${m[1]}`);

describe('GET /runs', () => {
  test('a browser gets a table of the runs, newest first, each linking to its page; JSON clients the list as before', async () => {
    const { app, probe } = setup();
    for (const t of ['good', 'bad<b>', 'down']) await probe(t);
    const page = await app.inject({ url: '/runs', headers: { accept: BROWSER } });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.deepEqual(rows(page.body), ['down error', 'bad&#60;b&#62; fail', 'good ok']);
    assert.match(page.body, /<a href="\/runs\/run-3"><time datetime="[^"]+">/);
    assert.match(page.body, /<span class="muted">connect<\/span>/, 'an error sample names its type');
    assert.match(page.body, /<span class="muted">sentence_loop(, \w+)*<\/span>/, 'a failed sample names its finding kinds');
    assert.doesNotMatch(page.body, /<b>/, 'names are escaped');
    const json = await app.inject({ url: '/runs' });
    assert.match(String(json.headers['content-type']), /^application\/json/);
    assert.deepEqual(
      (json.json() as { runs: { verdict: string }[] }).runs.map((r) => r.verdict),
      ['error', 'fail', 'ok'],
    );
  });

  test('the filter form: target, probe and verdict, "any" sent as an empty value, the choices kept', async () => {
    const { app, probe } = setup();
    for (const t of ['good', 'bad<b>', 'good']) await probe(t);
    const page = (url: string) => app.inject({ url, headers: { accept: BROWSER } });
    const fails = await page('/runs?target=&probe=&verdict=fail');
    assert.equal(fails.statusCode, 200, fails.body);
    assert.deepEqual(rows(fails.body), ['bad&#60;b&#62; fail']);
    assert.match(fails.body, /<option value="fail" selected>fail<\/option>/);
    assert.match(fails.body, /<option value="" selected>any<\/option><option value="good">good<\/option>/);
    assert.match(fails.body, /href="\/runs\?verdict=fail&amp;format=json"/, 'the JSON link keeps the filter');
    const good = await page('/runs?target=good&probe=short&verdict=');
    assert.deepEqual(rows(good.body), ['good ok', 'good ok']);
    assert.match(good.body, /<p class="muted">2 runs matching, newest first<\/p>/);
    assert.equal((await page('/runs?verdict=bogus')).statusCode, 400);
    assert.equal((await app.inject('/runs?target=good&verdict=&format=json')).json().runs.length, 2);
  });
});

describe('the index page', () => {
  test(`each pair's last ${HISTORY_CELLS} verdicts as a strip of cells, oldest first, each linking to its run, the onset on hover`, async () => {
    const { app, probe } = setup();
    for (let i = 0; i < HISTORY_CELLS + 2; i++) await probe(i % 2 ? 'bad<b>' : 'good');
    const index = (await app.inject({ url: '/', headers: { accept: BROWSER } })).body;
    const strip = (target: string) => {
      const row = index.split('\n').find((l) => l.includes(`data-target="${target}"`)) ?? '';
      return [...row.matchAll(/<a class="cell v-(\w+)" href="\/runs\/([^"]+)" title="([^"]+)"/g)].map((m) => ({
        verdict: m[1],
        id: m[2],
        title: m[3],
      }));
    };
    const good = strip('good');
    assert.equal(good.length, 13);
    assert.ok(good.every((c) => c.verdict === 'ok'));
    assert.deepEqual(
      good.map((c) => Number(c.id!.slice(4))),
      [...good.map((c) => Number(c.id!.slice(4)))].sort((a, b) => a - b),
      'oldest on the left',
    );
    const bad = strip('bad&#60;b&#62;');
    assert.equal(bad.length, 13);
    assert.match(bad[0]!.title!, /^fail \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, collapse onset at \d+% of the output$/);
    assert.deepEqual(strip('down'), [], 'no run: no cell');
    assert.match(index, /<a href="\/runs">Recent runs<\/a>/);
  });
});
