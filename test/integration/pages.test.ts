// The pages in a real browser (issue 9, item 8 "Done when"): Debian's chromium, driven by
// playwright-core, against `serve` on loopback with a token set and the simulator behind it.
// The page of a failed run shows the onset mark and the highlighted loop; the index page's
// button runs a probe; the runs page filters by verdict; the index shows each pair's history
// strip (issue 21 §8); a conformance run's page is a checklist; at 1280x900 a run's page shows its
// verdict, reason and output first (issue 39). Skipped when chromium is absent,
// except under CI.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { ensureBuilt, freePort, makeTempDir, requireChromium, startServe, waitReady, type Child } from '../helpers/integrationProcess.js';

const TOKEN = 'browser-test-token-0123456789';
const PROBE = 'long';
const chromium = requireChromium();

function configYaml(simUrl: string): string {
  return `server:
  authToken: ${TOKEN}
targets:
  - name: healthy
    baseUrl: ${simUrl}
    model: healthy
    probes: [${PROBE}]
  - name: collapse
    baseUrl: ${simUrl}
    model: collapse-sentence@1200
    probes: [${PROBE}]
  - name: proxy
    baseUrl: ${simUrl.replace(/\/v1$/, '/defect/tool-index-zero+model-renamed/v1')}
    model: healthy
    probes: [conformance]
probes:
  - name: conformance
    kind: conformance
    maxTokens: 200
  - name: ${PROBE}
    prompt: Write a detailed technical article about building a reliable job scheduler.
    maxTokens: 3000
    minTokens: 1000
`;
}

/** The browser's globals used inside evaluate() (the project compiles without the DOM library). */
interface BrowserWindow {
  getComputedStyle(el: unknown, pseudo?: string): { content: string; backgroundColor: string };
  innerHeight: number;
}

interface RunJson {
  id: string;
  verdict: string;
  samples: { metrics: { content: { repeatCount: number; collapseOnset: number } } }[];
}

describe('the pages in headless Chromium', { skip: chromium.skip ?? false, timeout: 120_000 }, () => {
  let sim: Simulator | undefined;
  let serve: Child | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let base = '';
  const tmp = makeTempDir('pages');
  // Style sheets or scripts the CSP refused: the pages must need none it forbids.
  const refused: string[] = [];

  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    const file = join(tmp.dir, 'pages.yaml');
    writeFileSync(file, configYaml(sim.url));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    serve = startServe(['--config', file, '--port', String(port)]);
    await waitReady(serve, base);
    const { chromium: driver } = await import('playwright-core');
    browser = await driver.launch({ executablePath: chromium.path!, timeout: 30_000, args: ['--disable-dev-shm-usage'] });
    page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.setDefaultNavigationTimeout(30_000);
    page.on('console', (msg) => {
      if (/Content.Security.Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await serve?.stop(2000);
    await sim?.close();
    tmp.remove();
  });

  it('the page of a failed run shows the onset mark and the highlighted loop (after logging in with the token)', async () => {
    assert.ok(page);
    const res = await fetch(`${base}/probe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'collapse', probe: PROBE }),
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(res.status, 200);
    const run = (await res.json()) as RunJson;
    assert.equal(run.verdict, 'fail');

    // No session yet: the browser is shown the login form, then sent on to the run.
    const first = await page.goto(`${base}/runs/${run.id}`);
    assert.equal(first?.status(), 401);
    await page.fill('input[name="token"]', TOKEN);
    await Promise.all([page.waitForURL(`${base}/runs/${run.id}`), page.click('button[type="submit"]')]);
    assert.equal(await page.locator('h1 .v').textContent(), 'fail');

    // Issue 39: at 1280x900 the first screen holds the verdict, the reason and the start of the output.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/runs/${run.id}`);
    const firstScreen = async (selector: string, minPx: number) =>
      page!
        .locator(selector)
        .first()
        .evaluate((el, px) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.top >= 0 && r.top + px <= (globalThis as unknown as BrowserWindow).innerHeight;
        }, minPx);
    assert.equal(await firstScreen('h1 .v', 10), true, 'the verdict is in the first 1280x900 screen');
    assert.equal(await firstScreen('#s0 ul.reasons li', 10), true, 'the reason is in the first 1280x900 screen');
    assert.equal(await firstScreen('#s0-content', 100), true, 'the first lines of the output are in the first 1280x900 screen');

    const onset = page.locator('#s0-content-onset');
    assert.equal(await onset.count(), 1);
    assert.equal(await onset.isVisible(), true, 'the onset mark is visible');
    const label = await onset.evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el, '::before').content);
    assert.match(label, /collapse starts here/, 'the style sheet (allowed by its CSP hash) labels the mark');

    const loops = page.locator('#s0-content mark.loop');
    const copies = await loops.count();
    assert.ok(
      copies >= 3 && copies <= run.samples[0]!.metrics.content.repeatCount + 1,
      `${copies} highlighted copies (a partial last copy counts)`,
    );
    assert.equal(await loops.first().isVisible(), true, 'the first copy of the loop is visible');
    const background = await loops.first().evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).backgroundColor);
    assert.equal(background, 'rgb(255, 224, 138)', 'the copy is highlighted');
    const unit = (await loops.first().textContent()) ?? '';
    assert.ok(unit.length > 20 && (await loops.nth(2).textContent()) === unit, `the copies repeat the unit: ${JSON.stringify(unit)}`);

    // The jump link brings the onset into view.
    await page.click('a[href="#s0-content-onset"]');
    const inView = await onset.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= (globalThis as unknown as BrowserWindow).innerHeight;
    });
    assert.equal(inView, true, 'the onset is in view after "jump"');
    assert.deepEqual(refused, []);
  });

  it('the page of a conformance run is a checklist: each check with its verdict, reason and evidence', async () => {
    assert.ok(page);
    const res = await fetch(`${base}/probe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target: 'proxy', probe: 'conformance' }),
      signal: AbortSignal.timeout(30_000),
    });
    assert.equal(res.status, 200);
    const run = (await res.json()) as { id: string; verdict: string };
    assert.equal(run.verdict, 'fail');
    await page.goto(`${base}/runs/${run.id}`);
    assert.equal(await page.locator('h1 .v').textContent(), 'fail');
    const rows = page.locator('table.checks tbody tr');
    assert.equal(await rows.count(), 8, 'every check has a row');
    const verdicts: Record<string, string> = {};
    for (let i = 0; i < 8; i++) {
      const row = rows.nth(i);
      verdicts[(await row.locator('th').textContent()) ?? ''] =
        `${await row.locator('.v').textContent()} ${await row.locator('code').textContent()}`;
      assert.equal(await row.isVisible(), true);
    }
    assert.deepEqual(verdicts, {
      models: 'fail model_mismatch',
      chat: 'pass ok',
      fields: 'pass ok',
      reasoning: 'skipped not_reasoning_model',
      tools: 'fail index_collision',
      streaming: 'pass ok',
      limits: 'pass ok',
      auth: 'skipped no_api_key',
    });
    const models = page.locator('#check-models');
    assert.match((await models.locator('td').nth(2).textContent()) ?? '', /asked for healthy, the answer names rerouted-model/);
    const evidence = models.locator('dl.evidence');
    assert.equal(await evidence.isVisible(), true, 'the evidence is shown');
    assert.match((await evidence.textContent()) ?? '', /answered\s*rerouted-model/);
    const badge = await models
      .locator('.v')
      .evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).backgroundColor);
    assert.equal(badge, 'rgb(198, 40, 40)', 'a failed check is red');
    const passed = await page
      .locator('#check-chat .v')
      .evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).backgroundColor);
    assert.equal(passed, 'rgb(46, 125, 50)', 'a passed check is green');
    assert.match(
      (await page.locator('#check-tools dl.evidence').textContent()) ?? '',
      /\{"city":"Paris","unit":"celsius"\}\{"city":"Tokyo"/,
    );
    assert.deepEqual(refused, []);
  });

  it("the index page's button runs a probe and the row shows its verdict", async () => {
    assert.ok(page);
    await page.goto(`${base}/`);
    const row = page.locator('tr[data-target="healthy"][data-probe="long"]');
    assert.equal(await row.locator('td.verdict').textContent(), 'none');
    await Promise.all([page.waitForURL(/\/runs\/[^/?]+$/, { timeout: 30_000 }), row.locator('button', { hasText: 'run now' }).click()]);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    assert.equal(await page.locator('h1 .v').textContent(), 'ok');
    assert.equal(await page.locator('#s0-content-onset').count(), 0, 'a healthy run has no onset');

    await page.goto(`${base}/`);
    assert.equal(await row.locator('td.verdict').textContent(), 'ok');
    assert.match((await row.locator('time').textContent()) ?? '', /just now|\d+ s ago/);
    assert.equal(await row.locator('a', { hasText: 'last run' }).getAttribute('href'), `/runs/${encodeURIComponent(id)}`);
    assert.equal(await page.locator('tr[data-target="collapse"] td.verdict').textContent(), 'fail');

    const listed = await fetch(`${base}/runs?target=healthy`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const runs = ((await listed.json()) as { runs: { id: string; trigger: string }[] }).runs;
    assert.deepEqual(
      runs.map((r) => [r.id, r.trigger]),
      [[id, 'manual']],
    );
    assert.deepEqual(refused, []);
  });

  it('the runs page is a table for a browser, filtered by verdict with its form', async () => {
    assert.ok(page);
    await page.goto(`${base}/runs`);
    const rows = page.locator('table.runs tr[data-verdict]');
    const verdicts = async () =>
      rows.evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { verdict: string } }).dataset.verdict));
    assert.deepEqual([...new Set(await verdicts())].sort(), ['fail', 'ok'], 'both runs before filtering');
    await page.selectOption('select[name="verdict"]', 'fail');
    await Promise.all([page.waitForURL(/verdict=fail/), page.click('form.filters button[type="submit"]')]);
    const failing = await verdicts();
    assert.ok(failing.length >= 1 && failing.every((v) => v === 'fail'), JSON.stringify(failing));
    assert.equal(await page.locator('select[name="verdict"]').inputValue(), 'fail', 'the form keeps the choice');
    // a row links to its run's page
    await Promise.all([page.waitForURL(/\/runs\/[^/?]+$/), rows.first().locator('a').first().click()]);
    assert.equal(await page.locator('h1 .v').textContent(), 'fail');
    assert.deepEqual(refused, []);
  });

  it("the index shows each pair's recent verdicts as coloured cells, the onset on hover, linking to the run", async () => {
    assert.ok(page);
    await page.goto(`${base}/`);
    const cells = page.locator('tr[data-target="collapse"] .strip a.cell');
    assert.ok((await cells.count()) >= 1);
    const last = cells.last();
    assert.equal(await last.isVisible(), true, 'the cell is visible');
    const box = await last.boundingBox();
    assert.ok(box && box.width >= 5 && box.height >= 10, `a cell of ${JSON.stringify(box)}`);
    const colour = await last.evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).backgroundColor);
    assert.equal(colour, 'rgb(198, 40, 40)', 'a failed run is red');
    assert.match((await last.getAttribute('title')) ?? '', /^fail .*, collapse onset at \d+% of the output$/);
    const okColour = await page
      .locator('tr[data-target="healthy"] .strip a.cell')
      .last()
      .evaluate((el) => (globalThis as unknown as BrowserWindow).getComputedStyle(el).backgroundColor);
    assert.equal(okColour, 'rgb(46, 125, 50)', 'an ok run is green');
    await Promise.all([page.waitForURL(/\/runs\/[^/?]+$/), last.click()]);
    assert.equal(await page.locator('h1 .v').textContent(), 'fail');
    assert.deepEqual(refused, []);
  });
});
