import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChat } from '../../src/client/streamChat.js';
import { GOLDEN_TASKS } from '../../src/config/probeKindTypes.js';
import type { ProbeConfig } from '../../src/config/types.js';
import { goldenTask } from '../../src/probe/golden/goldenTasks.js';
import { findingKinds } from '../../src/probe/judgeSample.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { solveGoldenPrompt, wrongAnswer } from '../../src/simulator/scenarios/golden.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

describe('solveGoldenPrompt', () => {
  test("works out every golden task from the prompt's words; wrongAnswer never gives the right one", () => {
    for (let i = 0; i < 300; i++) {
      const task = goldenTask(GOLDEN_TASKS, 5, `run-${i}`, i);
      assert.equal(solveGoldenPrompt(task.prompt), task.expected, task.prompt);
      assert.notEqual(wrongAnswer(task.expected), task.expected);
    }
    assert.equal(solveGoldenPrompt('Write about caches.'), null);
  });
});

// The golden probe end to end against the simulator's golden scenarios.
describe('golden probes against the simulator', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
  });
  after(async () => {
    await sim.close();
  });

  let ids = 0;
  const golden: ProbeConfig = testProbe({
    name: 'golden',
    messages: [],
    maxTokens: 128,
    temperature: 0,
    samples: 5,
    kind: 'golden',
    golden: { tasks: [...GOLDEN_TASKS], seed: 1 },
  });
  const run = (baseUrl: string, model: string) =>
    runProbe(testTarget({ baseUrl, model }), golden, {
      stream: streamChat,
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => `r${++ids}`,
    });

  test('the golden model answers every task right: ok samples, each task once', async () => {
    const result = await run(sim.url, 'golden');
    assert.equal(result.verdict, 'ok', JSON.stringify(result.samples.map((s) => s.reasons)));
    const outcomes = result.samples.map((s) => outcomeOf(s, 'golden'));
    assert.deepEqual(
      outcomes.map((o) => o?.correct),
      [true, true, true, true, true],
    );
    assert.deepEqual(outcomes.map((o) => o?.task).sort(), [...GOLDEN_TASKS].sort());
    for (const s of result.samples) assert.equal(s.temperature, 0);
  });

  test('golden-wrong answers every task wrongly: golden_wrong findings of severity warn, no failed sample', async () => {
    const result = await run(sim.url, 'golden-wrong');
    assert.equal(result.verdict, 'warn');
    for (const s of result.samples) {
      const o = outcomeOf(s, 'golden');
      assert.equal(o?.correct, false);
      assert.notEqual(o?.answered, o?.expected);
      assert.deepEqual([...findingKinds(s.findings)], ['golden_wrong']);
      assert.match(s.reasons.join('\n'), /^golden_wrong: [a-z]+ task: answered ".*", expected ".*"$/m);
    }
  });

  test('a model that does not answer in the form is wrong, with no ANSWER: line said', async () => {
    const result = await run(sim.url, 'short@20');
    for (const s of result.samples) {
      assert.equal(outcomeOf(s, 'golden')?.answered, null);
      assert.match(s.reasons.join('\n'), /golden_wrong: [a-z]+ task: no ANSWER: line \(expected .*\)/);
    }
  });
});
