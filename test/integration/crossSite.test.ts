// A page of another site against the daemon reached by name over plain HTTP, in headless
// Chromium (issue 34, part 2). On such an origin Chromium sends no Sec-Fetch-* headers, no Origin
// on a no-cors GET and no Referer under no-referrer, so the browser boundary has nothing to read:
// an <img> on any page started a paid run. The page at http://evil.test:PORT2/ tries an <img>, a
// no-cors fetch, a fetch with referrerPolicy no-referrer, a no-cors POST and two auto-submitted
// forms (urlencoded, text/plain); no run may start. The index page's button, opened at
// http://daemon.test:PORT/, still starts one. Both names resolve to 127.0.0.1 through
// --host-resolver-rules. Skipped when chromium is absent, except under CI.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { ensureBuilt, freePort, makeTempDir, requireChromium, startServe, waitReady, type Child } from '../helpers/integrationProcess.js';

const chromium = requireChromium();

/** The documented container setup: no token, the daemon reached by its name (server.allowedHosts). */
function configYaml(simUrl: string): string {
  return `server:
  allowedHosts: [daemon.test]
targets:
  - name: healthy
    baseUrl: ${simUrl}
    model: healthy
    probes: [p]
probes:
  - name: p
    prompt: Write a short note about harbours.
    maxTokens: 200
`;
}

/** The attacker's page: every request a page can send to another origin without a preflight. */
function evilPage(daemon: string): string {
  const probe = (n: string) => `${daemon}/probe?target=healthy&amp;probe=p&amp;via=${n}`;
  const raw = (n: string) => `${daemon}/probe?target=healthy&probe=p&via=${n}`;
  return `<!doctype html><html><head><meta name="referrer" content="no-referrer"><title>cats</title></head><body>
<img src="${probe('img')}" onerror="window.img = 'done'" onload="window.img = 'done'">
<iframe name="f1"></iframe><iframe name="f2"></iframe>
<form id="urlencoded" target="f1" method="post" action="${probe('form')}">
<input type="hidden" name="target" value="healthy"><input type="hidden" name="probe" value="p"></form>
<form id="plain" target="f2" method="post" enctype="text/plain" action="${probe('plain')}">
<input type="hidden" name='{"target":"healthy","probe":"p","x":"' value='"}'></form>
<script>
const settle = (p) => p.then(() => 'answered', (e) => 'failed: ' + e.message);
window.results = Promise.all([
  settle(fetch(${JSON.stringify(raw('fetch'))}, { mode: 'no-cors' })),
  settle(fetch(${JSON.stringify(raw('noreferrer'))}, { mode: 'no-cors', referrerPolicy: 'no-referrer' })),
  settle(fetch(${JSON.stringify(raw('post'))}, { mode: 'no-cors', method: 'POST', referrerPolicy: 'no-referrer' })),
  settle(fetch(${JSON.stringify(raw('json'))}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })),
]);
document.getElementById('urlencoded').submit();
document.getElementById('plain').submit();
</script></body></html>`;
}

describe('a page of another site cannot start runs on a daemon reached by name over HTTP', {
  skip: chromium.skip ?? false,
  timeout: 120_000,
}, () => {
  let sim: Simulator | undefined;
  let serve: Child | undefined;
  let evil: Server | undefined;
  let browser: Browser | undefined;
  let base = '';
  let daemon = '';
  let evilUrl = '';
  const seen: string[] = [];
  const tmp = makeTempDir('crosssite');

  /** The runs in history, asked as a client (the daemon has no token: /runs is open to it). */
  const runs = async () => {
    const res = await fetch(`${base}/runs`, { signal: AbortSignal.timeout(10_000) });
    return ((await res.json()) as { runs: unknown[] }).runs.length;
  };

  before(async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    const file = join(tmp.dir, 'crosssite.yaml');
    writeFileSync(file, configYaml(sim.url));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    daemon = `http://daemon.test:${port}`;
    serve = startServe(['--config', file, '--port', String(port)]);
    await waitReady(serve, base);
    evil = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(evilPage(daemon));
    });
    await new Promise<void>((r) => evil!.listen(0, '127.0.0.1', r));
    const address = evil.address();
    evilUrl = `http://evil.test:${typeof address === 'object' && address ? address.port : 0}/`;
    const { chromium: driver } = await import('playwright-core');
    browser = await driver.launch({
      executablePath: chromium.path!,
      timeout: 30_000,
      args: [
        '--disable-dev-shm-usage',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--host-resolver-rules=MAP daemon.test 127.0.0.1,MAP evil.test 127.0.0.1',
      ],
    });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await serve?.stop(2000);
    await sim?.close();
    await new Promise<void>((r) => (evil ? evil.close(() => r()) : r()));
    tmp.remove();
  });

  it('an <img>, no-cors fetches (one without a referrer), a no-cors POST and auto-submitted forms start no run', async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(15_000);
    const answered: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/probe')) answered.push(`${new URL(r.url()).searchParams.get('via')} ${r.status()}`);
    });
    await page.goto(evilUrl);
    const results = await page.evaluate('window.results');
    // Both frames posted and were answered (the forms were sent), and the <img> settled.
    await page.waitForFunction('window.img === "done"');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !(answered.some((a) => a.startsWith('form')) && answered.some((a) => a.startsWith('plain')))) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      answered.some((a) => a.startsWith('form ')),
      `the urlencoded form was sent: ${answered.join(', ')}`,
    );
    assert.ok(
      answered.some((a) => a.startsWith('plain ')),
      `the text/plain form was sent: ${answered.join(', ')}`,
    );
    assert.ok(Array.isArray(results) && results.length === 4, JSON.stringify(results));
    // Give any run that was started its time to be recorded, then count.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(
      await runs(),
      0,
      `runs started by the page of evil.test (answers: ${answered.join(', ')}; fetches: ${JSON.stringify(results)})`,
    );
    await page.close();
  });

  it("the index page's run button, opened at the daemon's name, still starts a run", async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(30_000);
    const before = await runs();
    await page.goto(`${daemon}/`);
    await Promise.all([page.waitForURL(/\/runs\/[^/]+$/), page.click('tr[data-target="healthy"][data-probe="p"] button')]);
    assert.match((await page.textContent('body')) ?? '', /healthy/);
    assert.equal(await runs(), before + 1);
    await page.close();
  });
});
