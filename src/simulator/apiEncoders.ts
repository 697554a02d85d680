import {
  type ChunkEncoder,
  type ChunkIdentity,
  type EncoderOptions,
  thinkTags,
  type ToolCall,
  type Usage,
  withThinkTags,
} from './chunks.js';

/**
 * The wire formats of the two other APIs the simulator speaks, behind chat's ChunkEncoder so
 * that the same scenarios, defects, builds and pacing (respond.ts) serve them:
 * - completions (`/v1/completions`, as vLLM sends it): `text_completion` chunks with
 *   `choices[0].text`; a base model has no reasoning channel, so reasoning goes into the text
 *   between <think> tags, as a reasoning model served without a parser writes it.
 * - responses (`/v1/responses`, as OpenAI and vLLM send it): typed events, each with its
 *   `event:` line and a sequence_number; no [DONE]: `response.completed` (or
 *   `response.incomplete` when the token limit cut the answer) ends the stream with the usage.
 *   Reasoning is a `reasoning` output item (or, think-in-content, <think> tags in the text);
 *   a function call is a `function_call` output item, streamed as the item added with its call_id
 *   and name, then `response.function_call_arguments.delta` events under its output_index.
 */

export type SimulatedApi = 'chat' | 'completions' | 'responses';

export function createCompletionsEncoder(identity: ChunkIdentity, options: EncoderOptions = {}): ChunkEncoder {
  const created = options.createdAsString ? JSON.stringify(String(identity.created)) : String(identity.created);
  const fingerprint = identity.systemFingerprint ? `"system_fingerprint":${JSON.stringify(identity.systemFingerprint)},` : '';
  const head = `data: {"id":${JSON.stringify(identity.id)},"object":"text_completion","created":${created},"model":${JSON.stringify(identity.model)},${fingerprint}"choices":`;
  const text = (t: string, logprob?: number) =>
    `${head}[{"index":0,"text":${JSON.stringify(t)},"logprobs":${
      logprob === undefined
        ? 'null'
        : `{"tokens":[${JSON.stringify(t)}],"token_logprobs":[${logprob}],"top_logprobs":null,"text_offset":[0]}`
    },"finish_reason":null,"stop_reason":null}]}\n\n`;
  const tagged = thinkTags(text);
  return {
    role: () => '',
    content: tagged.content,
    reasoning: (t) => (options.reasoning === 'dropped' ? '' : tagged.reasoning(t)),
    toolCall: () => '',
    finish: (reason) =>
      `${head}[{"index":0,"text":"","logprobs":null,"finish_reason":${JSON.stringify(options.lengthAsStop && reason === 'length' ? 'stop' : reason)},"stop_reason":null}]}\n\n`,
    usage: (usage) => `${head}[],"usage":${JSON.stringify(usage)}}\n\n`,
    done: () => 'data: [DONE]\n\n',
  };
}

/** A chat encoder plus the error a stream of this API ends with (chat's is a data: {"error": ...} event). */
export interface ApiEncoder extends ChunkEncoder {
  error?(error: unknown): string;
}

export function createResponsesEncoder(identity: ChunkIdentity, options: EncoderOptions = {}): ApiEncoder {
  let seq = 0;
  let outputIndex = -1;
  let open: 'reasoning' | 'message' | 'function_call' | null = null;
  let finish: string | null = null;
  let usage: Usage | null = null;
  // the output_index a function call's deltas name (tool-index-zero: always 0)
  let callIndex = 0;
  const event = (type: string, fields: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
  const prefixes = { reasoning: 'rs', message: 'msg', function_call: 'fc' } as const;
  const itemId = () => `${prefixes[open ?? 'message']}_${identity.id.slice(-12)}_${outputIndex}`;
  const response = (status: string, extra: Record<string, unknown> = {}) => ({
    id: identity.id,
    object: 'response',
    created_at: options.createdAsString ? String(identity.created) : identity.created,
    status,
    model: identity.model,
    output: [],
    usage: null,
    ...extra,
  });
  /** Opens an output item of the kind the next delta needs. */
  const item = (kind: 'reasoning' | 'message'): string => {
    if (open === kind) return '';
    open = kind;
    outputIndex++;
    const added = event('response.output_item.added', {
      output_index: outputIndex,
      item:
        kind === 'reasoning'
          ? { id: itemId(), type: 'reasoning', summary: [], content: [], status: 'in_progress' }
          : { id: itemId(), type: 'message', role: 'assistant', content: [], status: 'in_progress' },
    });
    if (kind === 'reasoning') return added;
    return (
      added +
      event('response.content_part.added', {
        item_id: itemId(),
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      })
    );
  };
  const text = (t: string, logprob?: number) =>
    item('message') +
    event('response.output_text.delta', {
      item_id: itemId(),
      output_index: outputIndex,
      content_index: 0,
      delta: t,
      logprobs: logprob === undefined ? [] : [{ token: t, logprob, top_logprobs: [] }],
    });
  const tagged = thinkTags(text);
  return {
    role: () =>
      event('response.created', { response: response('in_progress') }) +
      event('response.in_progress', { response: response('in_progress') }),
    content: tagged.content,
    reasoning: (t) => {
      if (options.reasoning === 'dropped') return '';
      // think-in-content: the reasoning goes into the text
      if (options.reasoning === 'think-tags') return tagged.reasoning(t);
      return (
        item('reasoning') +
        event('response.reasoning_text.delta', { item_id: itemId(), output_index: outputIndex, content_index: 0, delta: t })
      );
    },
    toolCall: (call) => {
      if (call.open) {
        open = 'function_call';
        outputIndex++;
        callIndex = options.toolIndexZero ? 0 : outputIndex;
        const added = event('response.output_item.added', {
          output_index: callIndex,
          item: { id: itemId(), type: 'function_call', call_id: call.open.id, name: call.open.name, arguments: '', status: 'in_progress' },
        });
        if (call.arguments === '') return added;
        return (
          added + event('response.function_call_arguments.delta', { item_id: itemId(), output_index: callIndex, delta: call.arguments })
        );
      }
      return event('response.function_call_arguments.delta', { item_id: itemId(), output_index: callIndex, delta: call.arguments });
    },
    finish: (reason) => {
      finish = options.lengthAsStop && reason === 'length' ? 'stop' : reason;
      return '';
    },
    usage: (u) => {
      usage = u;
      return '';
    },
    done: () => {
      const incomplete = finish === 'length';
      const body = response(incomplete ? 'incomplete' : 'completed', {
        incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
        usage: usage && { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
      });
      return event(incomplete ? 'response.incomplete' : 'response.completed', { response: body });
    },
    error: (error) => event('response.failed', { response: response('failed', { error }) }),
  };
}

/** The non-streamed body of a completions or responses request (stream: false). */
export function apiCompletionBody(
  api: 'completions' | 'responses',
  identity: ChunkIdentity,
  answer: { content: string; reasoning: string; toolCalls?: readonly ToolCall[] },
  finishReason: string | null,
  usage: Usage,
  options: EncoderOptions = {},
): string {
  const finish = options.lengthAsStop && finishReason === 'length' ? 'stop' : finishReason;
  const withReasoning = answer.reasoning !== '' && options.reasoning !== 'dropped';
  const created = options.createdAsString ? String(identity.created) : identity.created;
  if (api === 'completions') {
    const text = withReasoning ? withThinkTags(answer.reasoning, answer.content) : answer.content;
    return JSON.stringify({
      id: identity.id,
      object: 'text_completion',
      created,
      model: identity.model,
      ...(identity.systemFingerprint ? { system_fingerprint: identity.systemFingerprint } : {}),
      choices: [{ index: 0, text, logprobs: null, finish_reason: finish, stop_reason: null }],
      usage,
    });
  }
  const incomplete = finish === 'length';
  const output: unknown[] = [];
  const tagged = withReasoning && options.reasoning === 'think-tags';
  if (withReasoning && !tagged)
    output.push({
      id: 'rs_0',
      type: 'reasoning',
      summary: [],
      content: [{ type: 'reasoning_text', text: answer.reasoning }],
      status: 'completed',
    });
  const calls = answer.toolCalls ?? [];
  // a response that only calls functions has no message item
  if (answer.content !== '' || calls.length === 0 || tagged)
    output.push({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [
        {
          type: 'output_text',
          text: tagged ? withThinkTags(answer.reasoning, answer.content) : answer.content,
          annotations: [],
        },
      ],
    });
  for (const [i, c] of calls.entries())
    output.push({ id: `fc_${i}`, type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments, status: 'completed' });
  return JSON.stringify({
    id: identity.id,
    object: 'response',
    created_at: created,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    model: identity.model,
    output,
    usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
  });
}

/** The request fields of a completions or responses request in chat's names, for the chat request reader; a string is the 400 message. */
export function chatFieldsOf(api: SimulatedApi, fields: Record<string, unknown>): Record<string, unknown> | string {
  if (api === 'chat') return fields;
  if (api === 'completions') {
    const prompt = fields.prompt;
    const text =
      typeof prompt === 'string' ? prompt : Array.isArray(prompt) && prompt.every((p) => typeof p === 'string') ? prompt.join('') : null;
    if (text === null) return '`prompt` is required and must be a string or a list of strings.';
    if (fields.max_completion_tokens !== undefined) return '`max_completion_tokens` is not a field of completions: use `max_tokens`.';
    const { prompt: _prompt, tools: _tools, logprobs, ...rest } = fields;
    return { ...rest, messages: [{ role: 'user', content: text }], logprobs: typeof logprobs === 'number' && logprobs >= 0 };
  }
  const input = fields.input;
  let messages: unknown[];
  if (typeof input === 'string') messages = [{ role: 'user', content: input }];
  else if (
    Array.isArray(input) &&
    input.every((m) => typeof m === 'object' && m !== null && typeof (m as { role?: unknown }).role === 'string')
  )
    messages = input;
  else return '`input` is required and must be a string or a list of messages ({role, content}).';
  if (typeof fields.instructions === 'string') messages = [{ role: 'system', content: fields.instructions }, ...messages];
  if (fields.max_tokens !== undefined) return '`max_tokens` is not a field of responses: use `max_output_tokens`.';
  const include = Array.isArray(fields.include) ? fields.include : [];
  const tools = chatTools(fields.tools, fields.tool_choice);
  if (typeof tools === 'string') return tools;
  const {
    input: _input,
    instructions: _instructions,
    max_output_tokens,
    tools: _tools,
    tool_choice: _choice,
    include: _include,
    ...rest
  } = fields;
  return {
    ...rest,
    ...tools,
    messages,
    max_tokens: max_output_tokens,
    // the usage comes with response.completed whether asked or not
    stream_options: { include_usage: true },
    logprobs: include.includes('message.output_text.logprobs'),
  };
}

/**
 * A responses request's function tools ({type: "function", name, parameters}) and tool_choice
 * ({type: "function", name}) in chat's shape, which the tool planner reads; a string is the 400 message.
 */
function chatTools(tools: unknown, choice: unknown): Record<string, unknown> | string {
  if (tools === undefined || tools === null) return {};
  if (!Array.isArray(tools)) return '`tools` must be an array.';
  const out: unknown[] = [];
  for (const tool of tools as unknown[]) {
    const t = tool as { type?: unknown; name?: unknown; description?: unknown; parameters?: unknown } | null;
    if (t?.type !== 'function' || typeof t.name !== 'string' || t.name === '')
      return 'Each of `tools` must be {"type": "function", "name": ..., "parameters": ...} (the responses API has no `function` wrapper).';
    out.push({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } });
  }
  const named = (choice as { type?: unknown; name?: unknown } | null)?.name;
  const toolChoice = typeof named === 'string' ? { type: 'function', function: { name: named } } : choice;
  return { tools: out, ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}) };
}
