import type { HttpExchange } from '../../client/httpExchange.js';
import { readApiCompletion, readApiStream } from './apiAnswers.js';
import { answerProblem, ask, notInApi, type CheckContext } from './checkContext.js';
import { fail, isObject, pass, short, skip, typeOf, type CheckVerdict, type Evidence } from './checkTypes.js';
import type { ToolDelta } from './readAnswers.js';

/** The one tool offered: a function any model calls for the prompts below. */
export const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather in a city.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city, e.g. Paris' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['city', 'unit'],
    },
  },
} as const;

/** The same tool as the responses API takes it: name and parameters at the top, not under `function`. */
export const RESPONSES_WEATHER_TOOL = { type: 'function', ...WEATHER_TOOL.function } as const;

export const ONE_CALL_PROMPT = 'What is the weather in Paris right now? Use the get_weather tool, in celsius.';
export const TWO_CALLS_PROMPT = 'What is the weather in Paris and in Tokyo right now? Call get_weather once for each city, in celsius.';

/** A function call as a client ends up with it. */
export interface AssembledCall {
  index: number | null;
  id: string | null;
  name: string | null;
  arguments: string;
  /** Distinct ids seen under this index: more than one means two calls were streamed as one. */
  ids: string[];
}

/** Joins streamed tool_calls deltas by index, as the OpenAI SDKs do. Pure. */
export function assembleToolCalls(deltas: readonly ToolDelta[]): AssembledCall[] {
  const byIndex = new Map<string, AssembledCall>();
  for (const d of deltas) {
    const key = typeof d.index === 'number' ? String(d.index) : 'none';
    let call = byIndex.get(key);
    if (!call) {
      call = { index: typeof d.index === 'number' ? d.index : null, id: null, name: null, arguments: '', ids: [] };
      byIndex.set(key, call);
    }
    if (typeof d.id === 'string' && d.id !== '') {
      call.id ??= d.id;
      if (!call.ids.includes(d.id)) call.ids.push(d.id);
    }
    if (typeof d.name === 'string' && d.name !== '') call.name = (call.name ?? '') === d.name ? d.name : `${call.name ?? ''}${d.name}`;
    if (typeof d.arguments === 'string') call.arguments += d.arguments;
  }
  return [...byIndex.values()];
}

/** The calls of a non-streamed message, in the same shape. */
export function messageToolCalls(toolCalls: unknown): AssembledCall[] | null {
  if (!Array.isArray(toolCalls)) return null;
  return toolCalls.map((c, i) => {
    const fn = isObject(c) && isObject(c['function']) ? c['function'] : {};
    const id = isObject(c) && typeof c['id'] === 'string' ? c['id'] : null;
    return {
      index: i,
      id,
      name: typeof fn['name'] === 'string' ? fn['name'] : null,
      arguments: typeof fn['arguments'] === 'string' ? fn['arguments'] : JSON.stringify(fn['arguments'] ?? null),
      ids: id ? [id] : [],
    };
  });
}

/** Why the arguments do not fit get_weather's schema (an object with a string city and a known unit), or null. */
export function schemaProblem(args: unknown): string | null {
  if (!isObject(args)) return `the arguments are ${typeOf(args)}, not an object`;
  const { properties, required } = WEATHER_TOOL.function.parameters;
  for (const key of required) if (args[key] === undefined) return `the required argument ${key} is missing`;
  if (typeof args['city'] !== 'string' || args['city'].trim() === '') return `city is ${typeOf(args['city'])}, not a string`;
  if (!(properties.unit.enum as readonly unknown[]).includes(args['unit']))
    return `unit is ${short(JSON.stringify(args['unit']) ?? '', 30)}, not celsius or fahrenheit`;
  return null;
}

/** Whether text is one JSON value; "{…}{…}" (two calls run together) is not. */
function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** What the calls of an answer are judged against: the tool's name, and its arguments' schema (null: any JSON). */
export interface ExpectedCall {
  name: string;
  fits: ((args: unknown) => string | null) | null;
}

const WEATHER: ExpectedCall = { name: WEATHER_TOOL.function.name, fits: schemaProblem };

/** Judges the calls of one answer: the right name, arguments that parse and fit, the finish reason, distinct ids. Pure. */
export function judgeCalls(
  calls: readonly AssembledCall[],
  finishReason: unknown,
  what: string,
  expected: ExpectedCall = WEATHER,
): CheckVerdict | null {
  const evidence: Evidence = {
    where: what,
    calls: calls.length,
    finish_reason: typeof finishReason === 'string' ? finishReason : typeOf(finishReason),
  };
  if (calls.length === 0) return fail('no_tool_call', `the ${what} called no tool (finish_reason ${evidence['finish_reason']})`, evidence);
  for (const [i, call] of calls.entries()) {
    const at = { ...evidence, call: i, name: call.name, arguments: short(call.arguments, 100) };
    if (call.ids.length > 1)
      return fail(
        'index_collision',
        `the ${what}'s calls ${call.ids.join(' and ')} were streamed under one index ${call.index}: their arguments ran together`,
        at,
      );
    if (call.name !== expected.name)
      return fail('wrong_tool_name', `the ${what} called ${call.name ?? 'a tool without a name'}, not ${expected.name}`, at);
    const args = parsed(call.arguments);
    if (!args.ok) return fail('arguments_not_json', `the ${what}'s arguments are not JSON: ${short(call.arguments, 80)}`, at);
    const why = expected.fits?.(args.value) ?? null;
    if (why) return fail('arguments_schema', `the ${what}'s arguments do not fit the tool: ${why}`, at);
  }
  const ids = calls.map((c) => c.id);
  if (calls.length > 1 && (new Set(ids).size !== ids.length || ids.some((id) => id === null)))
    return fail('index_collision', `the ${what}'s ${calls.length} calls do not each have an id of their own (${ids.join(', ')})`, evidence);
  if (finishReason !== 'tool_calls')
    return fail(
      'finish_not_tool_calls',
      `the ${what} called a tool but says finish_reason ${evidence['finish_reason']}, not tool_calls`,
      evidence,
    );
  return null;
}

/** A server that answers the tools request with 400/422/501 does not do tools (vLLM without --enable-auto-tool-choice). */
function refusedTools(x: HttpExchange): boolean {
  return x.status === 400 || x.status === 422 || x.status === 501;
}

/**
 * tools: one function tool and a prompt that needs it give a tool_calls entry with the right
 * name, arguments that parse as JSON and fit the tool's schema, and finish_reason tool_calls;
 * the same streamed reassembles to the same; a prompt that needs two calls gives each its own
 * index and id (a tool parser that sends every delta at index 0 runs two calls' arguments
 * together into invalid JSON). On responses the calls are `function_call` output items (call_id,
 * name, arguments; streamed as an added item, then argument deltas under its output_index) and a
 * completed response that called one reads as finish_reason tool_calls. Completions has no tools.
 */
export async function checkTools(ctx: CheckContext): Promise<CheckVerdict> {
  if (ctx.api === 'completions') return notInApi('completions', 'has no tools: a base model is not offered functions to call');
  const body = (prompt: string, stream: boolean) =>
    ctx.api === 'chat'
      ? ctx.chatBody(ask(prompt), { tools: [WEATHER_TOOL], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) })
      : ctx.apiBody(ask(prompt), stream, { tools: [RESPONSES_WEATHER_TOOL] });
  const whole = await ctx.send({ path: ctx.path, body: body(ONE_CALL_PROMPT, false) });
  if (refusedTools(whole))
    return skip('tools_not_supported', `the server refused a request with tools (HTTP ${whole.status}): ${short(whole.body, 120)}`, {
      status: whole.status,
    });
  const wholeProblem = answerProblem(whole, 'a request with tools', { json: true });
  if (wholeProblem) return wholeProblem;
  const answer = readApiCompletion(ctx.api, whole.body);
  const calls = messageToolCalls(answer?.toolCalls) ?? [];
  const first = judgeCalls(calls, answer?.finishReason, 'completion');
  if (first) return first;

  const streamed = await ctx.send({ path: ctx.path, stream: true, body: body(ONE_CALL_PROMPT, true) });
  const streamedProblem = answerProblem(streamed, 'a streamed request with tools', { cutIsOk: true });
  if (streamedProblem) return streamedProblem;
  const s = readApiStream(ctx.api, streamed.pieces);
  const assembled = assembleToolCalls(s.toolDeltas);
  const second = judgeCalls(assembled, s.finishReasons.at(-1), 'stream');
  if (second) return second;
  const same = (a: AssembledCall, b: AssembledCall) =>
    a.name === b.name && JSON.stringify(JSON.parse(a.arguments)) === JSON.stringify(JSON.parse(b.arguments));
  if (assembled.length !== calls.length || !assembled.every((c, i) => same(c, calls[i] as AssembledCall)))
    return fail(
      'stream_mismatch',
      `the streamed deltas reassemble to ${assembled.map((c) => short(c.arguments, 40)).join(' ')}, the completion called ${calls.map((c) => short(c.arguments, 40)).join(' ')}`,
      {
        streamed: assembled.length,
        completion: calls.length,
      },
    );

  const two = await ctx.send({ path: ctx.path, stream: true, body: body(TWO_CALLS_PROMPT, true) });
  const twoProblem = answerProblem(two, 'a streamed request that needs two calls', { cutIsOk: true });
  if (twoProblem) return twoProblem;
  const t = readApiStream(ctx.api, two.pieces);
  const both = assembleToolCalls(t.toolDeltas);
  const third = judgeCalls(both, t.finishReasons.at(-1), 'two-call stream');
  if (third) return third;
  const evidence: Evidence = {
    name: calls[0]?.name ?? null,
    arguments: short(calls[0]?.arguments ?? '', 80),
    'two-call indexes': both.map((c) => c.index).join(', '),
    'two-call ids': both.length,
  };
  if (both.length < 2)
    return pass(
      'one call with valid arguments, streamed and not; to the two-city prompt the model made one call, so distinct indexes were not seen',
      evidence,
    );
  return pass(
    `get_weather called with valid arguments, streamed and not; two calls streamed with indexes ${both.map((c) => c.index).join(', ')} and ids of their own`,
    evidence,
  );
}
