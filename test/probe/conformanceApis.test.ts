// The conformance probe on a completions and on a responses target, against the built-in
// simulator: every check that has a meaning on the API passes on a healthy endpoint (the others
// are skipped, naming the API), and each defect switch that has an equivalent on the API makes
// exactly its own check fail, with its reason.
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

const KEY = 'sk-conformance-apis-canary-7c2d9e4f1a';
const probe = conformanceProbe();
const deps = conformanceDeps({ SIM_KEY: KEY });

type Api = 'completions' | 'responses';

/** The checks each API has no meaning for, skipped with not_in_api. */
const SKIPPED: Record<Api, ConformanceCheckName[]> = { completions: ['reasoning', 'tools'], responses: [] };
/** The defects with no equivalent on the API: nothing fails with them on. */
const NOT_ON: Record<Api, string[]> = {
  // no reasoning channel (its reasoning is text between <think> tags whatever the switch), no tools
  completions: ['reasoning-dropped', 'think-in-content', 'tool-index-zero'],
  // no stop sequences in the responses API
  responses: ['stop-ignored'],
};

for (const api of ['completions', 'responses'] as const) {
  describe(`the conformance probe on a ${api} target`, { timeout: 90_000 }, () => {
    let sim: Simulator;
    before(async () => {
      sim = await startSimulator({ tokensPerSecond: 2000, apiKey: KEY });
    });
    after(async () => {
      await sim.close();
      await closeHttpDispatchers();
    });
    const targetAt = (defects: string, over: Partial<TargetConfig> = {}) =>
      testTarget({
        baseUrl: defects ? sim.url.replace(/\/v1$/, `/defect/${defects}/v1`) : sim.url,
        apiKeyEnv: 'SIM_KEY',
        api,
        ...over,
      });
    const checks = (run: Awaited<ReturnType<typeof runProbe>>) => outcomeOf(run.samples[0]!, 'conformance')!.checks;
    const statuses = (run: Awaited<ReturnType<typeof runProbe>>) =>
      Object.fromEntries(checks(run).map((c) => [c.check, c.status === 'fail' ? c.reason : c.status]));

    it(`passes every check that has a meaning on ${api}, and the requests went to /v1/${api}`, async () => {
      const run = await runProbe(targetAt(''), probe, deps);
      assert.equal(run.verdict, 'ok', JSON.stringify(run.samples[0]!.reasons));
      const expected = Object.fromEntries(
        CONFORMANCE_CHECKS.map((c) => [c, SKIPPED[api].includes(c) ? 'skipped' : c === 'reasoning' ? 'skipped' : 'pass']),
      );
      assert.deepEqual(statuses(run), expected);
      for (const c of checks(run).filter((c) => SKIPPED[api].includes(c.check))) {
        assert.equal(c.reason, 'not_in_api');
        assert.match(c.detail, new RegExp(`^the ${api} API `));
      }
      const s = outcomeOf(run.samples[0]!, 'conformance')!;
      assert.ok(s.streaming, 'the streaming figures were judged');
      assert.ok(s.streaming.lateContentRatio < 0.5 && s.streaming.firstContentRatio < 0.5);
      // completions has no reasoning to tell by: not known
      assert.equal(s.reasoningModel, api === 'completions' ? null : false);
      const posts = sim.requests.filter((r) => r.api !== undefined);
      assert.ok(posts.length >= 4 && posts.every((r) => r.api === api));
      assert.ok(!JSON.stringify(run).includes(KEY), 'the key is nowhere in the run');
    });

    it('on a reasoning model, the reasoning check passes where the API has reasoning', async () => {
      const run = await runProbe(targetAt('', { model: 'reasoning' }), probe, deps);
      assert.equal(run.verdict, 'ok', JSON.stringify(run.samples[0]!.reasons));
      assert.equal(statuses(run)['reasoning'], api === 'completions' ? 'skipped' : 'pass');
    });

    for (const defect of DEFECTS) {
      const applies = !NOT_ON[api].includes(defect.name);
      const title = applies ? `only ${defect.check} fails, with ${defect.reason}` : `nothing fails (no ${api} equivalent)`;
      it(`${defect.name}: ${title}`, async () => {
        const reasons = defect.check === 'reasoning';
        const run = await runProbe(targetAt(defect.name, reasons ? { model: 'reasoning', reasoning: true } : {}), probe, deps);
        const failed = Object.entries(statuses(run)).filter(([, s]) => s !== 'pass' && s !== 'skipped');
        assert.deepEqual(failed, applies ? [[defect.check, defect.reason]] : [], JSON.stringify(run.samples[0]!.reasons));
        assert.equal(run.verdict, applies ? 'fail' : 'ok');
        assert.ok(!JSON.stringify(run).includes(KEY), 'the key is nowhere in the run');
      });
    }

    it('asks for at most the output tokens conformanceTokenBudget says for the API', async () => {
      let asked = 0;
      const counting: ProbeDeps = {
        ...deps,
        http: (req, o) => {
          const b = req.body ?? {};
          asked += Number(b['max_tokens'] ?? b['max_output_tokens'] ?? 0);
          return httpExchange(req, o);
        },
      };
      for (const some of [
        [...CONFORMANCE_CHECKS],
        ['chat', 'streaming'],
        ['auth'],
        ['tools', 'limits'],
        ['reasoning'],
      ] as ConformanceCheckName[][]) {
        asked = 0;
        await runProbe(targetAt(''), { ...probe, conformance: { checks: some } }, counting);
        assert.equal(asked, conformanceTokenBudget(probe.maxTokens, some, api), some.join(', '));
      }
    });
  });
}
