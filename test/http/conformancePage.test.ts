// A conformance run through the app: /probe answers its checklist as JSON, /runs/:id shows it as a
// page (each check, its verdict, reason and evidence), /metrics has its series. The simulator
// serves a target behind two defects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closeHttpDispatchers, httpExchange } from '../../src/client/httpExchange.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testProbe, testTarget } from '../helpers/testConfig.js';

describe('a conformance run in the app', { timeout: 30_000 }, () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
  });
  after(async () => {
    await sim.close();
    await closeHttpDispatchers();
  });

  it('answers the checklist as JSON, shows it as a page, exports its series', async () => {
    const url = sim.url.replace(/\/v1$/, '/defect/tool-index-zero+model-renamed/v1');
    const config = testConfig({
      targets: [testTarget({ name: 'proxy', baseUrl: url, probes: ['conformance'] })],
      probes: [
        testProbe({
          name: 'conformance',
          kind: 'conformance',
          messages: [],
          maxTokens: 200,
          conformance: { checks: ['models', 'tools', 'streaming', 'auth'] },
        }),
      ],
    });
    const { app } = testApp(config, () => Promise.reject(new Error('no generation here')), {}, httpExchange);
    const run = (await app.inject({ method: 'POST', url: '/probe?target=proxy&probe=conformance', payload: {} })).json();
    assert.equal(run.verdict, 'fail');
    const checks = run.samples[0].outcome.checks as {
      check: string;
      status: string;
      reason: string;
      evidence: Record<string, unknown>;
    }[];
    assert.deepEqual(
      checks.map((c) => [c.check, c.status, c.reason]),
      [
        ['models', 'fail', 'model_mismatch'],
        ['tools', 'fail', 'index_collision'],
        ['streaming', 'pass', 'ok'],
        ['auth', 'skipped', 'no_api_key'],
      ],
    );
    assert.deepEqual(
      run.samples[0].findings.map((f: { kind: string }) => f.kind),
      ['conformance', 'conformance'],
    );

    const page = await app.inject({ url: `/runs/${run.id}`, headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    const html = page.body;
    assert.match(html, /<h2>Checklist <span class="v v-fail">fail<\/span><\/h2>/);
    assert.match(html, /4 checks: 1 passed, 2 failed, 1 skipped/);
    assert.match(html, /<tr class="check check-fail" id="check-models">[\s\S]*?<code>model_mismatch<\/code>[\s\S]*?rerouted-model/);
    assert.match(html, /id="check-tools">[\s\S]*?index_collision[\s\S]*?<dt>arguments<\/dt><dd>\{&#34;city&#34;:&#34;Paris&#34;/);
    assert.match(html, /id="check-auth">[\s\S]*?<span class="v v-skipped">skipped<\/span>/);

    const metrics = (await app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^coherency_conformance_check_success\{target="proxy",probe="conformance",check="models"\} 0$/m);
    assert.match(metrics, /^coherency_conformance_check_success\{target="proxy",probe="conformance",check="streaming"\} 1$/m);
    assert.match(
      metrics,
      /^coherency_conformance_check_failure_info\{target="proxy",probe="conformance",check="tools",reason="index_collision"\} 1$/m,
    );
    assert.match(
      metrics,
      /^coherency_conformance_check_failures_total\{target="proxy",probe="conformance",check="models",reason="model_mismatch"\} 1$/m,
    );
    assert.doesNotMatch(metrics, /coherency_conformance_check_success\{[^}]*check="auth"/);
    assert.match(metrics, /^coherency_probe_samples_total\{target="proxy",probe="conformance",verdict="fail"\} 1$/m);
    assert.doesNotMatch(metrics, /coherency_degeneration_ratio\{target="proxy"/);
  });
});
