// The answers of the completions and responses APIs as the conformance checks read them: the
// recorded streams of test/fixtures/streams/{completions,responses} pass every check a recording
// can be judged by (a failed response ends without response.completed), and the readers and the
// field audit find what each defect breaks in those APIs' own shapes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { StreamApi } from '../../src/core/apiChunks.js';
import { readApiCompletion, readApiStream } from '../../src/probe/conformance/apiAnswers.js';
import { auditCompletion, auditStream } from '../../src/probe/conformance/fields.js';
import { judgeReasoning, REASONING_FIELDS } from '../../src/probe/conformance/reasoning.js';
import { judgeStream } from '../../src/probe/conformance/streaming.js';
import { assembleToolCalls, judgeCalls, messageToolCalls } from '../../src/probe/conformance/tools.js';
import { repoPath } from '../helpers/repoRoot.js';

/** A recording replayed as one read per event, 10 ms apart. */
function replay(api: StreamApi, name: string) {
  const text = readFileSync(repoPath(`test/fixtures/streams/${api}/${name}.sse`), 'utf8');
  return readApiStream(
    api,
    text.split(/(?<=\n\n)/).map((e, i) => ({ atMs: i * 10, text: e })),
  );
}

/** SSE text of responses events, each with its event line. */
const sse = (events: Record<string, unknown>[]) =>
  events.map((e) => ({ atMs: 0, text: `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n` }));

const response = (over: Record<string, unknown> = {}) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1764912000,
  status: 'completed',
  model: 'm',
  output: [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Temperature.' }] }],
  usage: { input_tokens: 12, output_tokens: 3, total_tokens: 15 },
  ...over,
});

describe('recorded completions and responses streams', () => {
  for (const [api, name, reasons] of [
    ['completions', 'vllm', false],
    ['completions', 'vllm-loop', false],
    ['responses', 'vllm-reasoning', true],
    ['responses', 'openai-loop-incomplete', true],
  ] as const) {
    it(`${api}/${name} passes the field audit and the stream judge${reasons ? ', and the reasoning judge' : ''}`, () => {
      const s = replay(api, name);
      assert.equal(auditStream(s, api), null, 'fields');
      assert.equal(judgeStream(s, null, api), null, 'streaming: its end, a usage that agrees');
      assert.ok(s.content.length > 0 && s.models.length === 1);
      if (reasons)
        assert.equal(
          judgeReasoning(
            { fields: s.reasoningFields, reasoningChars: s.reasoning.length, content: s.content },
            'stream',
            REASONING_FIELDS.responses,
          ),
          null,
        );
    });
  }

  it('responses/failed ends without response.completed: no_done, naming the event', () => {
    const verdict = judgeStream(replay('responses', 'failed'), null, 'responses');
    assert.equal(verdict?.reason, 'no_done');
    assert.match(verdict!.detail, /response\.completed/);
  });

  it('the incomplete response reads as finish length, the completed one as stop', () => {
    assert.deepEqual(replay('responses', 'openai-loop-incomplete').finishReasons, ['length']);
    assert.deepEqual(replay('responses', 'vllm-reasoning').finishReasons, ['stop']);
  });
});

describe('readApiCompletion', () => {
  it("completions: choices[0].text is the content, finish_reason and usage chat's", () => {
    const a = readApiCompletion(
      'completions',
      JSON.stringify({
        id: 'cmpl-1',
        object: 'text_completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, text: ' Heat.', finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      }),
    )!;
    assert.deepEqual([a.content, a.finishReason, a.usage?.total, a.model], [' Heat.', 'stop', 7, 'm']);
    assert.equal(readApiCompletion('completions', 'not json'), null);
  });

  it('responses: output_text content, reasoning items, status as the finish reason, input/output tokens', () => {
    const a = readApiCompletion(
      'responses',
      JSON.stringify(
        response({
          output: [
            { id: 'rs', type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'Think.' }] },
            ...response().output,
          ],
        }),
      ),
    )!;
    assert.deepEqual([a.content, a.reasoning, a.finishReason], ['Temperature.', { text: 'Think.', fields: ['reasoning_text'] }, 'stop']);
    assert.deepEqual([a.usage?.prompt, a.usage?.completion, a.usage?.total], [12, 3, 15]);
    const cut = readApiCompletion(
      'responses',
      JSON.stringify(response({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })),
    );
    assert.equal(cut?.finishReason, 'length');
    // no message item: no text, as chat's null content
    assert.equal(readApiCompletion('responses', JSON.stringify(response({ output: [] })))?.content, undefined);
    assert.equal(readApiCompletion('responses', JSON.stringify(response({ status: 'failed' })))?.finishReason, 'failed');
  });

  it('responses: function_call items are the calls, and a completed response that made one reads as tool_calls', () => {
    const a = readApiCompletion(
      'responses',
      JSON.stringify(
        response({
          output: [
            { id: 'fc', type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
          ],
        }),
      ),
    )!;
    const calls = messageToolCalls(a.toolCalls)!;
    assert.deepEqual(
      calls.map((c) => [c.id, c.name]),
      [['call_1', 'get_weather']],
    );
    assert.equal(judgeCalls(calls, a.finishReason, 'completion'), null);
  });
});

describe('responses streams of function calls', () => {
  const call = (index: number, outputIndex: number, id: string, args: string[]) => [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { id: `fc_${index}`, type: 'function_call', call_id: id, name: 'get_weather', arguments: '' },
    },
    ...args.map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: `fc_${index}`, output_index: outputIndex, delta })),
  ];
  const completed = { type: 'response.completed', response: response({ output: [] }) };

  it('reassemble by output_index, each call with its call_id', () => {
    const s = readApiStream(
      'responses',
      sse([
        ...call(0, 0, 'call_a', ['{"city":"Paris",', '"unit":"celsius"}']),
        ...call(1, 1, 'call_b', ['{"city":"Tokyo","unit":"celsius"}']),
        completed,
      ]),
    );
    const calls = assembleToolCalls(s.toolDeltas);
    assert.deepEqual(
      calls.map((c) => [c.index, c.id]),
      [
        [0, 'call_a'],
        [1, 'call_b'],
      ],
    );
    assert.equal(judgeCalls(calls, s.finishReasons.at(-1), 'stream'), null);
    assert.ok(s.done);
  });

  it('two calls under one output_index are a collision', () => {
    const s = readApiStream(
      'responses',
      sse([...call(0, 0, 'call_a', ['{"city":"Paris"']), ...call(1, 0, 'call_b', [',"unit":"celsius"}']), completed]),
    );
    assert.equal(judgeCalls(assembleToolCalls(s.toolDeltas), s.finishReasons.at(-1), 'stream')?.reason, 'index_collision');
  });
});

describe('the field audit on completions and responses', () => {
  it("completions: a choice's text must be a string", () => {
    const base = { id: 'c', object: 'text_completion', created: 1, model: 'm', choices: [{ index: 0, text: 'x', finish_reason: null }] };
    assert.equal(auditCompletion(base, 'completions'), null);
    assert.deepEqual(auditCompletion({ ...base, choices: [{ index: 0, finish_reason: null }] }, 'completions'), {
      field: 'choices[0].text',
      expected: 'string',
      got: 'absent',
    });
  });

  it('responses: created_at a number, output a list of typed items, integer counts; in every event too', () => {
    assert.equal(auditCompletion(response(), 'responses'), null);
    assert.equal(auditCompletion(response({ created_at: '1764912000' }), 'responses')?.field, 'created_at');
    assert.equal(auditCompletion(response({ output: [{}] }), 'responses')?.field, 'output[0]');
    assert.equal(auditCompletion(response({ usage: { input_tokens: '12' } }), 'responses')?.field, 'usage');
    // a count below zero is no count: a client adds it up
    assert.deepEqual(auditCompletion(response({ usage: { input_tokens: 12, output_tokens: -1 } }), 'responses'), {
      field: 'usage',
      expected: 'object with counts (integers, 0 or more), or null',
      got: 'object',
    });
    const chat = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }],
    };
    assert.equal(auditCompletion({ ...chat, usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }, 'chat'), null);
    assert.equal(auditCompletion({ ...chat, usage: { prompt_tokens: 5, completion_tokens: -1, total_tokens: 4 } }, 'chat')?.field, 'usage');
    const stream = (events: Record<string, unknown>[]) => auditStream(readApiStream('responses', sse(events)), 'responses');
    assert.equal(
      stream([
        { type: 'response.output_text.delta', delta: 'Hi' },
        { type: 'response.completed', response: response() },
      ]),
      null,
    );
    assert.equal(stream([{ type: 'response.output_text.delta', delta: 3 }])?.problem.field, 'delta');
    assert.equal(stream([{ type: 'response.completed', response: response({ created_at: '1' }) }])?.problem.field, 'response.created_at');
    assert.equal(
      stream([{ type: 'response.incomplete', response: response({ status: 'incomplete', incomplete_details: { reason: 'odd' } }) }])
        ?.reason,
      'unknown_finish_reason',
    );
  });
});
