// Deadlines for a whole run (issue 34, part 5): a conformance run sends about six requests in one
// sample slot, and `data: x` or usage-only events every 0.5 s counted as progress, so each request
// got the full totalSeconds. Now they are no progress, and the run as a whole ends at its deadline
// with timeout_run, keeping the checks done before it.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { closeStreamDispatchers, streamChat } from '../../src/client/streamChat.js';
import { runDeadlineSeconds } from '../../src/probe/runDeadline.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { startLoopback, type Loopback } from '../client/loopback.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

const deps: ProbeDeps = {
  stream: (request, options) => streamChat(request, options),
  http: httpExchange,
  env: {},
  now: Date.now,
  logger: silentLogger,
  newId: () => 'run',
};

/** Answers every request with an event stream of junk: `data: x`, usage-only events, comments, every 0.5 s, never ending. */
function junkServer(): Promise<Loopback> {
  return startLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const junk = ['data: x\n\n', 'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1}}\n\n', ': ping\n\n'];
    let i = 0;
    const t = setInterval(() => res.write(junk[i++ % junk.length]!), 500);
    res.on('close', () => clearInterval(t));
  });
}

describe('the deadline of a whole run', { timeout: 30_000 }, () => {
  const servers: Loopback[] = [];
  after(async () => {
    for (const s of servers) await s.close();
    await closeHttpDispatchers();
    await closeStreamDispatchers();
  });

  it('a conformance run against a server dripping data: x and usage-only events ends at its deadline with timeout_run', async () => {
    const s = await junkServer();
    servers.push(s);
    const target = testTarget({ baseUrl: `${s.url}/v1`, timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 20, runSeconds: 3 } });
    const probe = testProbe({ name: 'conformance', kind: 'conformance', messages: [], maxTokens: 50 });
    const started = performance.now();
    const run = await runProbe(target, probe, deps);
    const took = (performance.now() - started) / 1000;
    assert.ok(took >= 2.9 && took < 4.5, `the run took ${took.toFixed(2)} s (deadline 3 s)`);
    const sample = run.samples[0]!;
    assert.equal(sample.verdict, 'error');
    assert.equal(sample.error?.type, 'timeout_run', JSON.stringify(sample.error));
    assert.match(sample.error!.message, /deadline of 3 s \(timeouts\.runSeconds\): \d of 8 checks ran/);
    const checks = outcomeOf(sample, 'conformance')!.checks;
    assert.ok(checks.length >= 1 && checks.length < 8, `${checks.length} checks kept`);
    // each request before the deadline ended at idleSeconds: junk is no progress
    assert.equal(checks[0]!.evidence['error'], 'timeout_idle', JSON.stringify(checks[0]));
    assert.equal(checks.at(-1)!.evidence['error'], 'timeout_run', JSON.stringify(checks.at(-1)));
  });

  it('a generation run keeps the samples done before its deadline; the one cut short is timeout_run, none is sent after', async () => {
    // a healthy pace that never finishes: each sample ends at totalSeconds
    const s = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const t = setInterval(
        () => res.write('data: {"choices":[{"index":0,"delta":{"content":"The bridge carries its load. "}}]}\n\n'),
        100,
      );
      res.on('close', () => clearInterval(t));
    });
    servers.push(s);
    const target = testTarget({
      baseUrl: `${s.url}/v1`,
      timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 1.5, runSeconds: 2.5 },
    });
    const probe = testProbe({ samples: 3, maxTokens: 100000, abortOnCollapse: false });
    const run = await runProbe(target, probe, deps);
    assert.deepEqual(
      run.samples.map((x) => x.error?.type),
      ['timeout_total', 'timeout_run'],
    );
    assert.ok(run.samples[1]!.content.length > 0, 'the text of the sample cut short is kept');
    assert.equal(s.requests.length, 2);
  });

  it('a deadline that passes while the run waits for a slot sends nothing more, and the last sample says so', async () => {
    const s = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"choices":[{"index":0,"delta":{"content":"A short answer."},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n');
    });
    servers.push(s);
    let acquired = 0;
    // the second slot comes only after the deadline
    const slots = {
      acquire: () => new Promise<() => void>((resolve) => setTimeout(() => resolve(() => {}), acquired++ === 0 ? 0 : 1500)),
    };
    const target = testTarget({ baseUrl: `${s.url}/v1`, timeouts: { connectSeconds: 2, idleSeconds: 2, totalSeconds: 5, runSeconds: 1 } });
    const run = await runProbe(target, testProbe({ samples: 3, maxTokens: 50 }), { ...deps, slots });
    assert.equal(run.samples.length, 1);
    assert.equal(s.requests.length, 1);
    assert.ok(
      run.samples[0]!.notes.some((n) => /deadline of 1 s \(timeouts\.runSeconds\) before every sample was sent/.test(n)),
      JSON.stringify(run.samples[0]!.notes),
    );
  });

  it('by default a run gets totalSeconds for each of its samples, plus one idleSeconds', () => {
    const target = testTarget({ timeouts: { connectSeconds: 10, idleSeconds: 60, totalSeconds: 1800 } });
    assert.equal(runDeadlineSeconds(target, testProbe({ samples: 3 })), 3 * 1800 + 60);
    assert.equal(runDeadlineSeconds(target, testProbe({ samples: 2, temperatures: [0, 0.6] })), 4 * 1800 + 60);
    assert.equal(runDeadlineSeconds(target, testProbe({ kind: 'conformance', samples: 5 })), 1800 + 60);
    assert.equal(runDeadlineSeconds(target, testProbe({ timeouts: { runSeconds: 90 } })), 90);
  });
});
