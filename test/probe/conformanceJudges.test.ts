// The pure parts of the conformance checks: the recorded vendor streams of test/fixtures pass
// every check a recording can be judged by, and each judge fails for the right reason on the
// answer shapes the defects produce.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, test } from 'node:test';
import { API_WORDS, type CheckContext, modelMatches } from '../../src/probe/conformance/checkContext.js';
import { checkLimits } from '../../src/probe/conformance/limits.js';
import { auditChunk, auditCompletion, auditStream } from '../../src/probe/conformance/fields.js';
import { readStreamAnswer } from '../../src/probe/conformance/readAnswers.js';
import { judgeReasoning } from '../../src/probe/conformance/reasoning.js';
import { judgeStream, streamFigures } from '../../src/probe/conformance/streaming.js';
import { assembleToolCalls, judgeCalls, schemaProblem } from '../../src/probe/conformance/tools.js';
import { repoPath } from '../helpers/repoRoot.js';

/** The streams recorded from real servers and gateways (the other fixtures are format edge cases). */
const VENDOR = [
  'azure',
  'deepseek',
  'groq',
  'litellm',
  'llamacpp',
  'llamacpp-timings-only',
  'ollama',
  'openai',
  'openrouter',
  'sglang-reasoning',
  'tgi',
  'tool-calls',
  'vllm',
  'vllm-reasoning',
  'vllm-repetition-detected',
];
const REASONING = new Set(['deepseek', 'ollama', 'openrouter', 'sglang-reasoning', 'vllm-reasoning']);

/** A recording replayed as one read per event, 10 ms apart (its real timing was not recorded). */
function replay(name: string) {
  const text = readFileSync(repoPath(`test/fixtures/streams/${name}.sse`), 'utf8');
  const events = text.split(/(?<=\n\n)/);
  return readStreamAnswer(events.map((e, i) => ({ atMs: i * 10, text: e })));
}

describe('recorded vendor streams pass every check a recording can be judged by', () => {
  for (const name of VENDOR) {
    it(name, () => {
      const s = replay(name);
      assert.equal(auditStream(s), null, 'fields');
      assert.equal(judgeStream(s, null), null, 'streaming: [DONE], a usage figure that agrees');
      if (REASONING.has(name))
        assert.equal(
          judgeReasoning({ fields: s.reasoningFields, reasoningChars: s.reasoning.length, content: s.content }, 'stream'),
          null,
          'reasoning',
        );
      if (name === 'tool-calls') {
        const calls = assembleToolCalls(s.toolDeltas);
        assert.equal(judgeCalls(calls, s.finishReasons.at(-1), 'stream', { name: 'get_weather', fits: null }), null, 'tools');
      }
    });
  }
});

test('the format edge cases fail the checks they should', () => {
  assert.equal(auditStream(replay('garbage-line'))?.reason, 'field_type');
  assert.equal(judgeStream(replay('usage-only-last'), null)?.reason, 'no_done');
  assert.equal(judgeStream(replay('role-only-first'), null)?.reason, 'usage_chunk_missing');
});

describe('judgeStream', () => {
  const chunk = (content: string) =>
    `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}},"finish_reason":null}]}\n\n`;
  const usage = (n: number) =>
    `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":${n},"total_tokens":${n + 5}}}\n\n`;
  const stream = (deltas: number, at: (i: number) => number, tail: string) =>
    readStreamAnswer([
      ...Array.from({ length: deltas }, (_, i) => ({ atMs: at(i), text: chunk(` word${i}`) })),
      { atMs: at(deltas - 1), text: tail },
    ]);

  it('spread text passes; the same text arriving at the end is buffered', () => {
    const spread = stream(100, (i) => 10 + i * 10, `${usage(100)}data: [DONE]\n\n`);
    const f = streamFigures(spread, 1000);
    assert.ok(f.lateContentRatio > 0.05 && f.lateContentRatio < 0.2, String(f.lateContentRatio));
    assert.equal(judgeStream(spread, f), null);
    const bunched = stream(100, () => 995, `${usage(100)}data: [DONE]\n\n`);
    const g = streamFigures(bunched, 1000);
    assert.deepEqual([g.lateContentRatio, g.textReads], [1, 1]);
    assert.equal(judgeStream(bunched, g)?.reason, 'buffered');
  });

  it('a slow first token alone (a queue, a long prefill) is not buffering', () => {
    const queued = stream(100, (i) => 700 + i * 3, `${usage(100)}data: [DONE]\n\n`);
    const f = streamFigures(queued, 1000);
    assert.ok(f.firstContentRatio > 0.6 && f.lateContentRatio < 0.5, JSON.stringify(f));
    assert.equal(judgeStream(queued, f), null);
  });

  it('no [DONE], no usage, a usage that disagrees with the deltas', () => {
    assert.equal(
      judgeStream(
        stream(10, (i) => i, usage(10)),
        null,
      )?.reason,
      'no_done',
    );
    assert.equal(
      judgeStream(
        stream(10, (i) => i, 'data: [DONE]\n\n'),
        null,
      )?.reason,
      'usage_chunk_missing',
    );
    assert.equal(
      judgeStream(
        stream(10, (i) => i, `${usage(0)}data: [DONE]\n\n`),
        null,
      )?.reason,
      'usage_count_mismatch',
    );
    assert.equal(
      judgeStream(
        stream(10, (i) => i, `${usage(500)}data: [DONE]\n\n`),
        null,
      )?.reason,
      'usage_count_mismatch',
    );
    // each delta a token or a few (speculative decoding): agrees
    assert.equal(
      judgeStream(
        stream(10, (i) => i, `${usage(30)}data: [DONE]\n\n`),
        null,
      ),
      null,
    );
  });
});

describe('auditChunk and auditCompletion', () => {
  const good = {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: {}, finish_reason: null }],
  };
  it('accepts the shapes servers send, refuses the types clients cannot read', () => {
    assert.equal(auditChunk(good), null);
    assert.equal(auditChunk({ ...good, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }), null);
    assert.deepEqual(auditChunk({ ...good, created: '1' }), { field: 'created', expected: 'number', got: 'string' });
    assert.deepEqual(auditChunk({ ...good, choices: [{ index: '0', delta: {} }] }), {
      field: 'choices[0].index',
      expected: 'integer',
      got: 'string',
    });
    assert.equal(auditChunk({ ...good, choices: [{ index: 0, delta: null }] })?.field, 'choices[0].delta');
    assert.equal(auditChunk({ ...good, usage: { completion_tokens: '7' } })?.field, 'usage');
    assert.equal(auditCompletion({ ...good, object: 'chat.completion', choices: [] })?.field, 'choices');
    assert.equal(
      auditCompletion({ ...good, choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'stop' }] }),
      null,
    );
  });
});

describe('judgeReasoning', () => {
  it('wants the reasoning in a field of its own, and none of it in content', () => {
    assert.equal(judgeReasoning({ fields: ['reasoning_content'], reasoningChars: 40, content: 'Paris.' }, 'stream'), null);
    assert.equal(judgeReasoning({ fields: [], reasoningChars: 0, content: 'Paris.' }, 'stream')?.reason, 'reasoning_missing');
    assert.equal(
      judgeReasoning({ fields: [], reasoningChars: 0, content: '<think>hmm</think>\n\nParis.' }, 'stream')?.reason,
      'think_in_content',
    );
    assert.equal(
      judgeReasoning({ fields: ['reasoning'], reasoningChars: 9, content: 'ok</think> Paris' }, 'stream')?.reason,
      'think_in_content',
    );
  });
});

describe('tool calls', () => {
  const d = (index: number, id: string | undefined, name: string | undefined, args: string) => ({
    atMs: 0,
    index,
    id,
    name,
    arguments: args,
  });
  it('reassembles by index; two calls under one index are a collision, not one call', () => {
    const ok = assembleToolCalls([
      d(0, 'a', 'get_weather', ''),
      d(0, undefined, undefined, '{"city":"Paris",'),
      d(0, undefined, undefined, '"unit":"celsius"}'),
    ]);
    assert.equal(judgeCalls(ok, 'tool_calls', 'stream'), null);
    const two = assembleToolCalls([
      d(0, 'a', 'get_weather', '{"city":"Paris","unit":"celsius"}'),
      d(0, 'b', 'get_weather', '{"city":"Tokyo","unit":"celsius"}'),
    ]);
    assert.equal(judgeCalls(two, 'tool_calls', 'stream')?.reason, 'index_collision');
    assert.equal(judgeCalls(ok, 'stop', 'stream')?.reason, 'finish_not_tool_calls');
    assert.equal(judgeCalls([], 'stop', 'stream')?.reason, 'no_tool_call');
    const broken = assembleToolCalls([d(0, 'a', 'get_weather', '{"city":')]);
    assert.equal(judgeCalls(broken, 'tool_calls', 'stream')?.reason, 'arguments_not_json');
    const other = assembleToolCalls([d(0, 'a', 'get_time', '{}')]);
    assert.equal(judgeCalls(other, 'tool_calls', 'stream')?.reason, 'wrong_tool_name');
  });
  it("checks the arguments against the tool's schema", () => {
    assert.equal(schemaProblem({ city: 'Paris', unit: 'celsius' }), null);
    assert.match(schemaProblem({ city: 'Paris' }) ?? '', /unit is missing/);
    assert.match(schemaProblem({ city: 3, unit: 'celsius' }) ?? '', /city is integer/);
    assert.match(schemaProblem({ city: 'Paris', unit: 'kelvin' }) ?? '', /unit is "kelvin"/);
  });
});

test('modelMatches: the name, an alias, or a dated snapshot of it', () => {
  const t = { model: 'gpt-4o-mini', modelAliases: ['mini'] };
  assert.ok(modelMatches('gpt-4o-mini', t));
  assert.ok(modelMatches('mini', t));
  assert.ok(modelMatches('gpt-4o-mini-2024-07-18', t));
  assert.ok(!modelMatches('gpt-4o', t));
  assert.ok(!modelMatches('gpt-4o-mini-rerouted', t));
});

test('each simulator defect names a conformance check and one of its reasons', async () => {
  const { DEFECTS } = await import('../../src/simulator/defects.js');
  const { CHECK_REASONS } = await import('../../src/probe/conformance/checkTypes.js');
  const { CONFORMANCE_CHECKS } = await import('../../src/config/probeKindTypes.js');
  for (const d of DEFECTS) {
    assert.ok((CONFORMANCE_CHECKS as readonly string[]).includes(d.check), d.name);
    assert.ok((CHECK_REASONS as readonly string[]).includes(d.reason), d.name);
  }
});

describe('limits: what a completion cut by max_tokens must say', () => {
  // the check's two requests answered by a stub: the limited one with `usage` and `finish_reason` as given
  const limitsWith = async (completionTokens: number, finishReason: string) => {
    const body = JSON.stringify({
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '1 2 3' }, finish_reason: finishReason }],
      usage: { prompt_tokens: 9, completion_tokens: completionTokens, total_tokens: 9 + completionTokens },
    });
    const ctx = {
      api: 'chat',
      path: '/chat/completions',
      words: API_WORDS.chat,
      apiBody: () => ({}),
      send: async () => ({ status: 200, contentType: 'application/json', body, pieces: [], headersAtMs: 1, endedAtMs: 2, error: null }),
    } as unknown as CheckContext;
    return checkLimits(ctx);
  };

  it('a count under 12 with finish_reason stop is a model that ended by itself: no finish_not_length', async () => {
    assert.notEqual((await limitsWith(3, 'stop')).reason, 'finish_not_length');
  });
  it('a count below zero is no count: finish_reason stop on a cut answer fails finish_not_length', async () => {
    const v = await limitsWith(-1, 'stop');
    assert.equal(v.status, 'fail');
    assert.equal(v.reason, 'finish_not_length');
  });
});
