import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { StreamFn } from '../../src/probe/probeDeps.js';
import { streamResult, testConfig, testProbe, testTarget } from '../helpers/testConfig.js';
import { testApp } from '../helpers/testApp.js';

type Message = { role: string; content: string };

// a server that answers every request with the previous request's last user message (a leak)
function leakyStream(): StreamFn {
  let previous: string | null = null;
  return async (request) => {
    const messages = request.body['messages'] as Message[];
    const mine = messages.at(-1)!.content;
    const content = previous ?? mine;
    previous = mine;
    return streamResult({ content, finishReason: 'stop' });
  };
}

test('/probe, /runs, /runs/:id and /metrics work for recall and contamination probes', async () => {
  const config = testConfig({
    targets: [testTarget({ name: 'leaky', probes: ['recall', 'mixing'] })],
    probes: [
      testProbe({
        name: 'recall',
        messages: [],
        maxTokens: 200,
        kind: 'recall',
        recall: { conversationTokens: 2000, facts: 3, positions: ['start', 'end'], seed: 1, minRecall: 0.5 },
      }),
      testProbe({ name: 'mixing', messages: [], maxTokens: 200, kind: 'contamination', contamination: { concurrency: 3, seed: 1 } }),
    ],
  });
  const { app } = testApp(config, leakyStream());
  try {
    let metrics = (await app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^coherency_contamination_detected_total\{target="leaky",probe="mixing"\} 0$/m);

    const mixing = (await app.inject({ method: 'POST', url: '/probe?target=leaky&probe=mixing', payload: {} })).json();
    assert.equal(mixing.verdict, 'fail');
    assert.equal(mixing.samples.length, 3);
    const leaks = mixing.samples.filter((s: { outcome: { leakedFrom: number[] } }) => s.outcome.leakedFrom.length > 0);
    assert.equal(leaks.length, 2);
    assert.match(
      leaks[0].reasons.join('\n'),
      /^contamination: request \d's code word [A-Z]+-[A-Z]+-\d{4} \(topic: .*\) appeared in the answer to request \d/m,
    );

    const recall = (await app.inject({ method: 'POST', url: '/probe?target=leaky&probe=recall', payload: {} })).json();
    assert.equal(recall.verdict, 'fail');
    assert.equal(recall.samples[0].outcome.ratio, 0);
    assert.deepEqual(recall.samples[0].outcome.byPosition, { start: { planted: 2, recalled: 0 }, end: { planted: 1, recalled: 0 } });

    const list = (await app.inject({ url: '/runs?target=leaky' })).json();
    const listed = JSON.stringify(list);
    assert.match(listed, /"recall_missed"/);
    assert.match(listed, /"contamination"/);
    const page = await app.inject({ url: `/runs/${mixing.id}`, headers: { accept: 'text/html' } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /appeared in the answer to request/);

    metrics = (await app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /^coherency_contamination_detected_total\{target="leaky",probe="mixing"\} 2$/m);
    assert.match(metrics, /^coherency_recall_ratio\{target="leaky",probe="recall"\} 0$/m);
    assert.match(metrics, /^coherency_degeneration_reasons_total\{target="leaky",probe="mixing",kind="contamination"\} 2$/m);
    assert.match(metrics, /^coherency_degeneration_reasons_total\{target="leaky",probe="recall",kind="recall_missed"\} 1$/m);
  } finally {
    await app.close();
  }
});
