// The conformance probe against the built-in simulator: every check passes on a healthy
// endpoint, and each defect switch makes exactly its own check fail, with its reason.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { CONFORMANCE_CHECKS, type ConformanceCheckName } from '../../src/config/probeKindTypes.js';
import type { TargetConfig } from '../../src/config/types.js';
import { conformanceTokenBudget } from '../../src/probe/conformance/index.js';
import type { ProbeDeps } from '../../src/probe/probeDeps.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { DEFECTS, startSimulator, type Simulator } from '../../src/simulator/index.js';
import { conformanceDeps, conformanceProbe } from '../helpers/conformanceSetup.js';
import { testTarget } from '../helpers/testConfig.js';

const KEY = 'sk-conformance-canary-5e1f0a9b3c7d';
const probe = conformanceProbe();
const deps = conformanceDeps({ SIM_KEY: KEY });

/** The reason each defect's check gives. */

describe('the conformance probe against the simulator', { timeout: 90_000 }, () => {
  let sim: Simulator;
  // paced like a fast server, so that a stream lasts long enough for its spread to be judged
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 2000, apiKey: KEY });
  });
  after(async () => {
    await sim.close();
    await closeHttpDispatchers();
  });
  const targetAt = (defects: string, over: Partial<TargetConfig> = {}) =>
    testTarget({ baseUrl: defects ? sim.url.replace(/\/v1$/, `/defect/${defects}/v1`) : sim.url, apiKeyEnv: 'SIM_KEY', ...over });
  const statuses = (run: Awaited<ReturnType<typeof runProbe>>) =>
    Object.fromEntries(outcomeOf(run.samples[0]!, 'conformance')!.checks.map((c) => [c.check, c.status === 'fail' ? c.reason : c.status]));

  it('passes every check on a healthy endpoint; reasoning is skipped for a model that does not reason', async () => {
    const run = await runProbe(targetAt(''), probe, deps);
    assert.equal(run.verdict, 'ok', JSON.stringify(run.samples[0]!.reasons));
    assert.deepEqual(statuses(run), {
      models: 'pass',
      chat: 'pass',
      fields: 'pass',
      reasoning: 'skipped',
      tools: 'pass',
      streaming: 'pass',
      limits: 'pass',
      auth: 'pass',
    });
    const s = outcomeOf(run.samples[0]!, 'conformance')!;
    assert.equal(s.checks.find((c) => c.check === 'reasoning')!.reason, 'not_reasoning_model');
    assert.equal(s.reasoningModel, false);
    assert.ok(s.streaming, 'the streaming figures were judged');
    assert.ok(s.streaming.lateContentRatio < 0.5 && s.streaming.firstContentRatio < 0.5);
    assert.ok(!JSON.stringify(run).includes(KEY), 'the key is nowhere in the run');
  });

  it('passes every check on a reasoning model, detected from its answers', async () => {
    const run = await runProbe(targetAt('', { model: 'reasoning' }), probe, deps);
    assert.equal(run.verdict, 'ok', JSON.stringify(run.samples[0]!.reasons));
    assert.ok(Object.values(statuses(run)).every((s) => s === 'pass'));
    assert.equal(outcomeOf(run.samples[0]!, 'conformance')!.reasoningModel, true);
  });

  for (const defect of DEFECTS) {
    it(`${defect.name}: only ${defect.check} fails, with ${defect.reason}`, async () => {
      // a gateway that drops the reasoning cannot be told from a model that does not reason: the target says it does
      const reasons = defect.check === 'reasoning';
      const run = await runProbe(targetAt(defect.name, reasons ? { model: 'reasoning', reasoning: true } : {}), probe, deps);
      const got = statuses(run);
      const failed = Object.entries(got).filter(([, s]) => s !== 'pass' && s !== 'skipped');
      assert.deepEqual(failed, [[defect.check, defect.reason]], JSON.stringify(run.samples[0]!.reasons));
      assert.equal(run.verdict, 'fail');
      const finding = run.samples[0]!.findings[0]!;
      assert.equal(finding.kind, 'conformance');
      assert.match(finding.detail, new RegExp(`^${defect.check} failed \\(${defect.reason}\\): `));
      assert.ok(!JSON.stringify(run).includes(KEY), 'the key is nowhere in the run');
    });
  }

  it('without a key, auth is skipped (and the simulator without one answers every check)', async () => {
    const open = await startSimulator({ tokensPerSecond: 2000 });
    try {
      const run = await runProbe(testTarget({ baseUrl: open.url }), probe, deps);
      assert.equal(run.verdict, 'ok');
      const auth = outcomeOf(run.samples[0]!, 'conformance')!.checks.find((c) => c.check === 'auth')!;
      assert.deepEqual([auth.status, auth.reason], ['skipped', 'no_api_key']);
    } finally {
      await open.close();
    }
  });

  it('asks for at most the output tokens conformanceTokenBudget says (what the cost note counts)', async () => {
    let asked = 0;
    const counting: ProbeDeps = {
      ...deps,
      http: (req, o) => {
        const b = req.body ?? {};
        asked += Number(b['max_tokens'] ?? b['max_completion_tokens'] ?? 0);
        return httpExchange(req, o);
      },
    };
    for (const checks of [[...CONFORMANCE_CHECKS], ['chat', 'streaming'], ['auth'], ['tools', 'limits']] as ConformanceCheckName[][]) {
      asked = 0;
      await runProbe(targetAt(''), { ...probe, conformance: { checks } }, counting);
      assert.equal(asked, conformanceTokenBudget(probe.maxTokens, checks), checks.join(', '));
    }
  });

  it('runs only the checks asked for, in their order', async () => {
    const some = { ...probe, conformance: { checks: ['streaming', 'models'] as ConformanceCheckName[] } };
    const run = await runProbe(targetAt(''), some, deps);
    assert.deepEqual(
      outcomeOf(run.samples[0]!, 'conformance')!.checks.map((c) => c.check),
      ['streaming', 'models'],
    );
  });

  it('an endpoint that does not answer is an error sample, each check failing with no_response', async () => {
    const run = await runProbe(testTarget({ baseUrl: 'http://127.0.0.1:1/v1' }), probe, deps);
    const s = run.samples[0]!;
    assert.equal(s.verdict, 'error');
    assert.equal(s.error?.type, 'connect');
    assert.ok(
      outcomeOf(s, 'conformance')!
        .checks.filter((c) => c.status !== 'skipped')
        .every((c) => c.reason === 'no_response'),
    );
  });
});
