import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChat } from '../../src/client/streamChat.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

describe('early abort of a collapsed stream (against the simulator on loopback)', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 2000 });
  });
  after(() => sim.close());

  const deps = (): ProbeDeps => ({ stream: streamChat, env: {}, now: Date.now, logger: silentLogger, newId: () => 'x' });
  const longProbe = testProbe({ name: 'long', maxTokens: 8000, minTokens: 1500 });

  // Issue 4's target: word, phrase and sentence loops abort within 300 tokens of the onset.
  // A paragraph loop needs a few copies of a longer unit before it is certain: 1200 tokens.
  for (const [model, onset, within] of [
    ['collapse-sentence@500', 500, 300],
    ['collapse-word@2000', 2000, 300],
    ['collapse-paragraph@1000', 1000, 1200],
  ] as const) {
    test(`${model}: the server sees the client leave within ${within} tokens of the onset`, async () => {
      const run = await runProbe(testTarget({ baseUrl: sim.url, model }), longProbe, deps());
      const s = run.samples[0]!;
      assert.equal(s.verdict, 'fail', s.reasons.join('; '));
      assert.equal(s.aborted, true);
      assert.ok(s.tokensAtAbort! < onset + within, `aborted at ${s.tokensAtAbort}`);
      assert.equal(s.tokensSaved, 8000 - s.outputTokens);
      assert.ok(s.onsetToken !== null && Math.abs(s.onsetToken - onset) < 120, `onset token ${s.onsetToken}`);
      // The metrics map offsets to tokens the same way as the sample (they used to say -1).
      const m = s.metrics!.content;
      assert.equal(m.repeatOnsetToken, s.onsetToken);
      const firstFail = s.findings.filter((f) => f.channel === 'content' && f.severity === 'fail').sort((a, b) => a.atChar - b.atChar)[0]!;
      assert.equal(m.collapseOnset, firstFail.atChar);
      assert.equal(m.collapseOnsetToken, firstFail.atToken);
      assert.ok(m.collapseOnsetToken >= 0 && Math.abs(m.collapseOnsetToken - onset) < 120, `collapse onset token ${m.collapseOnsetToken}`);
      const served = sim.requests.at(-1)!;
      assert.equal(served.model, model);
      // The server notices the closed socket a moment after the client returns.
      for (let i = 0; i < 100 && served.clientClosedAtToken === null; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(served.clientClosedAtToken !== null, 'the server saw the client go away');
      console.log(
        `${model}: onset ${onset}, detected onset token ${s.onsetToken}, client aborted at ${s.tokensAtAbort}, server saw the close at ${served.clientClosedAtToken}`,
      );
      assert.ok(served.clientClosedAtToken! < onset + within, `server saw the close at token ${served.clientClosedAtToken}`);
      console.log(
        `${model}: onset ${onset}, detected onset token ${s.onsetToken}, client aborted at ${s.tokensAtAbort}, server saw the close at ${served.clientClosedAtToken}`,
      );
    });
  }

  test('a healthy 8000-token stream is never aborted', async () => {
    const run = await runProbe(testTarget({ baseUrl: sim.url, model: 'healthy' }), longProbe, deps());
    const s = run.samples[0]!;
    assert.equal(s.verdict, 'ok', s.reasons.join('; '));
    assert.equal(s.aborted, false);
    assert.equal(s.outputTokens, 8000);
    assert.equal(sim.requests.at(-1)!.clientClosedAtToken, null);
  });

  test('abortOnCollapse: false streams to the end and still fails', async () => {
    const run = await runProbe(
      testTarget({ baseUrl: sim.url, model: 'collapse-sentence@500' }),
      { ...longProbe, maxTokens: 3000, abortOnCollapse: false },
      deps(),
    );
    const s = run.samples[0]!;
    assert.equal(s.verdict, 'fail');
    assert.equal(s.aborted, false);
    assert.equal(s.outputTokens, 3000);
  });
});
