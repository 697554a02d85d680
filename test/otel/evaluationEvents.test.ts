import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluationEvents, evaluatorOf, operationName, serverOf } from '../../src/otel/evaluationEvents.js';
import { testRun, testSample } from '../helpers/testConfig.js';

const target = { name: 'vllm', baseUrl: 'https://llm.example/v1', model: 'qwen', api: 'chat' as const };

describe('evaluationEvents', () => {
  it('one event per sample and one per finding, in order, with the GenAI names', () => {
    const run = testRun('run-1', [
      testSample({ index: 0, verdict: 'ok' }),
      testSample({
        index: 1,
        verdict: 'fail',
        onsetToken: 40,
        findings: [
          {
            kind: 'sentence_loop',
            severity: 'fail',
            certain: true,
            atChar: 100,
            atToken: 40,
            detail: 'the sentence "SECRET-OUTPUT" repeats 12 times',
            excerpt: 'SECRET-OUTPUT SECRET-OUTPUT',
            channel: 'content',
          },
        ],
        score: {
          content: { mode: 'rules', probability: 0.93, threshold: 0.66, warnFrom: 0.26, contributions: [] },
          reasoning: null,
        },
      }),
      testSample({ index: 2, verdict: 'error', error: { type: 'timeout_idle', message: 'no output for 60 s' } }),
    ]);
    const events = evaluationEvents(run, { target, probeKind: 'generation', responseModel: 'qwen-served' });
    assert.deepEqual(
      events.map((e) => [e.attributes['gen_ai.evaluation.name'], e.attributes['gen_ai.evaluation.score.label'], e.severityText]),
      [
        ['generation', 'ok', 'INFO'],
        ['generation', 'fail', 'ERROR'],
        [evaluatorOf('sentence_loop'), 'fail', 'ERROR'],
        ['generation', 'error', 'ERROR'],
      ],
    );
    for (const e of events) {
      assert.equal(e.eventName, 'gen_ai.evaluation.result');
      assert.equal(e.attributes['gen_ai.operation.name'], 'chat');
      assert.equal(e.attributes['gen_ai.provider.name'], 'openai');
      assert.equal(e.attributes['gen_ai.request.model'], 'qwen');
      assert.equal(e.attributes['gen_ai.response.model'], 'qwen-served');
      assert.equal(e.attributes['server.address'], 'llm.example');
      assert.equal(e.attributes['server.port'], 443);
      assert.equal(e.attributes['coherency.run_id'], 'run-1');
      assert.match(String(e.attributes['gen_ai.evaluation.explanation']), /run \/runs\/run-1$/);
    }
    assert.equal(events[1]?.attributes['gen_ai.evaluation.score.value'], 0.93);
    assert.equal(events[1]?.attributes['coherency.onset_token'], 40);
    assert.equal(events[0]?.attributes['gen_ai.evaluation.score.value'], undefined, 'no score: none given');
    assert.equal(events[2]?.attributes['gen_ai.evaluation.explanation'], 'sentence_loop at token 40 (content); run /runs/run-1');
    assert.equal(events[3]?.attributes['error.type'], 'timeout_idle');
    assert.ok(!JSON.stringify(events).includes('SECRET-OUTPUT'), 'no output text: a finding is said by its kind and place');
  });

  it('names the detector of a kind, and the operation of an API', () => {
    assert.notEqual(evaluatorOf('sentence_loop'), 'sentence_loop');
    assert.equal(evaluatorOf('recall_missed'), 'recall_missed');
    assert.equal(operationName('completions'), 'text_completion');
    assert.equal(operationName('responses'), 'chat');
    assert.deepEqual(serverOf('http://[::1]:8000/v1'), { 'server.address': '::1', 'server.port': 8000 });
    assert.deepEqual(serverOf('http://h/v1'), { 'server.address': 'h', 'server.port': 80 });
  });
});
