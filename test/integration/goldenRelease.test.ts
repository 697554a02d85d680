// Done-when of issue 40 (golden probes): the share of golden answers that are correct falls
// for a simulator build that is switched to answer wrongly after N requests. The daemon's app
// (its probe service and registry) runs a golden probe against the simulator's release switch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChat } from '../../src/client/streamChat.js';
import { GOLDEN_TASKS } from '../../src/config/probeKindTypes.js';
import { startSimulator } from '../../src/simulator/index.js';
import { testApp } from '../helpers/testApp.js';
import { testConfig, testProbe, testTarget } from '../helpers/testConfig.js';

test('the correct share is 1 on the healthy build and falls once the build answers wrongly', { timeout: 60_000 }, async () => {
  const sim = await startSimulator({ tokensPerSecond: 0, release: { after: 6, degradeTo: 'golden-wrong' } });
  const config = testConfig({
    targets: [testTarget({ name: 'sim', baseUrl: sim.url, model: 'golden', probes: ['golden'] })],
    probes: [
      testProbe({
        name: 'golden',
        messages: [],
        maxTokens: 128,
        temperature: 0,
        samples: 3,
        kind: 'golden',
        golden: { tasks: [...GOLDEN_TASKS], seed: 1 },
      }),
    ],
  });
  const { app } = testApp(config, streamChat);
  const answers = async () => {
    const metrics = (await app.inject({ url: '/metrics' })).body;
    const read = (result: string) =>
      Number(
        new RegExp(`^coherency_golden_answers_total\\{target="sim",probe="golden",result="${result}"\\} (\\d+)$`, 'm').exec(metrics)?.[1],
      );
    return { correct: read('correct'), wrong: read('wrong'), metrics };
  };
  const share = (a: { correct: number; wrong: number }) => a.correct / (a.correct + a.wrong);
  try {
    assert.deepEqual(await answers().then(({ correct, wrong }) => ({ correct, wrong })), { correct: 0, wrong: 0 }, 'created at 0');
    for (let run = 0; run < 2; run++) {
      const result = (await app.inject({ method: 'POST', url: '/probe?target=sim&probe=golden', payload: {} })).json();
      assert.equal(result.verdict, 'ok', JSON.stringify(result.samples?.map((s: { reasons: string[] }) => s.reasons)));
    }
    const healthy = await answers();
    assert.equal(healthy.correct, 6);
    assert.equal(share(healthy), 1);

    for (let run = 0; run < 2; run++) {
      const result = (await app.inject({ method: 'POST', url: '/probe?target=sim&probe=golden', payload: {} })).json();
      assert.equal(result.verdict, 'warn', 'a wrong answer warns; it is no failed sample');
    }
    const switched = await answers();
    assert.deepEqual({ correct: switched.correct, wrong: switched.wrong }, { correct: 6, wrong: 6 });
    assert.equal(share(switched), 0.5);
    // wrong answers are not degeneration: the degeneration ratio stays 0
    assert.match(switched.metrics, /^coherency_degeneration_ratio\{target="sim",probe="golden"\} 0$/m);
    assert.match(switched.metrics, /^coherency_degeneration_reasons_total\{target="sim",probe="golden",kind="golden_wrong"\} 6$/m);
  } finally {
    await app.close();
    await sim.close();
  }
});
