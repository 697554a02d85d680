// Issue 21 §3 and §4, "Done when": a daemon pointed at a loopback server has its first run within
// a minute of start. `serve` with OPENAI_BASE_URL set (and the demo file present, as in a
// checkout) says first where its config came from and that the demo is not used; its start-up
// line says when the first runs come; the first one comes about a second after start, though the
// schedules (every 5 and 30 minutes, and the conformance checklist daily) would not run anything
// for minutes; the index page shows each pair's next run.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { ensureBuilt, fetchText, freePort, startServe, waitFor, waitReady, type Child } from '../helpers/integrationProcess.js';

describe('serve from OPENAI_BASE_URL: the config source, then a first run soon after start', { timeout: 60_000 }, () => {
  let sim: Simulator | undefined;
  let serve: Child | undefined;
  after(async () => {
    await serve?.stop(5000);
    await sim?.close();
  });

  it('names $OPENAI_BASE_URL over the demo file, says when the first runs come, and runs within seconds', async () => {
    ensureBuilt();
    sim = await startSimulator({ host: '127.0.0.1', port: 0, tokensPerSecond: 0 });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const started = Date.now();
    serve = startServe(['--port', String(port), '--log-format', 'pretty'], {
      LOG_LEVEL: 'info',
      OPENAI_BASE_URL: sim.url,
      OPENAI_MODEL: 'healthy',
      OPENAI_API_KEY: '',
      OPENAI_API_KEY_FILE: '',
      COHERENCY_CONFIG: '',
      COHERENCY_MODEL: '',
    });
    await waitReady(serve, base);
    const child = serve;
    const lines = () =>
      child
        .stdout()
        .split('\n')
        .filter((l) => l.trim() !== '');
    await waitFor('the start-up line', () => lines().some((l) => l.includes('listening on')));
    const first = lines()[0] ?? '';
    assert.match(first, /INFO.*config from \$OPENAI_BASE_URL: http:\/\/127\.0\.0\.1:\d+\/v1, model healthy, no API key/, first);
    assert.match(first, /config\/coherency\.yaml is not used while OPENAI_BASE_URL is set/, first);
    const listening = lines().find((l) => l.includes('listening on')) ?? '';
    assert.match(listening, /first runs of 3 target×probe pairs in 1-4\d s, then on their schedules/, listening);

    // the first run of the first pair, a second after start: the schedules alone would run nothing for minutes
    const run = await waitFor(
      'a first run in /runs',
      async () => {
        const { body } = await fetchText(`${base}/runs`);
        return (JSON.parse(body) as { runs: { target: string; probe: string; verdict: string }[] }).runs[0];
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    const seconds = (Date.now() - started) / 1000;
    assert.deepEqual([run.target, run.probe, run.verdict], ['127-0-0-1', 'short', 'ok']);
    assert.ok(seconds < 20, `first run after ${seconds.toFixed(1)} s`);

    const index = await fetch(`${base}/`, { headers: { accept: 'text/html' } }).then((r) => r.text());
    const row = (probe: string) => index.split('\n').find((l) => l.includes(`data-target="127-0-0-1" data-probe="${probe}"`));
    // the long probe's first run is still to come, 20 s after start, and the conformance one's 40 s
    // after; the short one's next is its schedule
    assert.match(row('long') ?? '', /<time class="next" datetime="[^"]+" title="[^"]+">in [1-2]?\d s<\/time>/, row('long'));
    assert.match(row('conformance') ?? '', /<time class="next" datetime="[^"]+" title="[^"]+">in [1-4]?\d s<\/time>/, row('conformance'));
    assert.match(row('short') ?? '', /<time class="next"[^>]*>in \d+ (s|min)<\/time>/, row('short'));
  });
});
