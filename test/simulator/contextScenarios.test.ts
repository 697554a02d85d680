import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { streamChat } from '../../src/client/streamChat.js';
import type { ProbeConfig } from '../../src/config/types.js';
import { outcomeOf } from '../../src/probe/probeTypes.js';
import { runProbe } from '../../src/probe/runProbe.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { silentLogger, testProbe, testTarget } from '../helpers/testConfig.js';

// The recall and contamination probes end to end against the simulator's context scenarios.
describe('simulator context scenarios', () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator();
  });
  after(async () => {
    await sim.close();
  });

  let ids = 0;
  const run = (model: string, probe: ProbeConfig) =>
    runProbe(testTarget({ baseUrl: sim.url, model }), probe, {
      stream: streamChat,
      env: {},
      now: Date.now,
      logger: silentLogger,
      newId: () => `r${++ids}`,
    });
  const recall = testProbe({
    name: 'recall',
    messages: [],
    maxTokens: 256,
    kind: 'recall',
    recall: { conversationTokens: 8000, facts: 6, positions: ['start', 'middle', 'end'], seed: 2, minRecall: 0.5 },
  });
  const contamination = testProbe({
    name: 'contamination',
    messages: [],
    maxTokens: 256,
    kind: 'contamination',
    contamination: { concurrency: 4, seed: 1 },
  });

  test('echo-all remembers every fact; echo-last forgets them all', async () => {
    const remembered = await run('echo-all', recall);
    assert.equal(remembered.verdict, 'ok', remembered.samples[0]!.reasons.join('; '));
    assert.equal(outcomeOf(remembered.samples[0]!, 'recall')?.ratio, 1);
    const forgot = await run('echo-last', recall);
    assert.equal(forgot.verdict, 'fail');
    assert.equal(outcomeOf(forgot.samples[0]!, 'recall')?.ratio, 0);
  });

  test('forget-after@N keeps only the last N tokens: the facts at the end survive, the others are missed', async () => {
    const r = await run('forget-after@1500', recall);
    const s = r.samples[0]!;
    assert.deepEqual(outcomeOf(s, 'recall')?.byPosition, {
      start: { planted: 2, recalled: 0 },
      middle: { planted: 2, recalled: 0 },
      end: { planted: 2, recalled: 2 },
    });
    // 2 of 6 is under minRecall 0.5
    assert.equal(s.verdict, 'fail');
    assert.deepEqual(
      outcomeOf(s, 'recall')?.missed.map((m) => m.position),
      ['start', 'middle', 'start', 'middle'],
    );
  });

  test('echo-last answers each request with its own message (ok); echo-previous leaks the previous one (fail)', async () => {
    assert.equal((await run('echo-last', contamination)).verdict, 'ok');
    const leaky = await run('echo-previous', contamination);
    assert.equal(leaky.verdict, 'fail');
    assert.ok(leaky.samples.filter((s) => s.findings.some((f) => f.kind === 'contamination')).length >= 3);
  });
});
