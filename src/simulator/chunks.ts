/**
 * Wire format of OpenAI-compatible chat completions as vLLM and OpenAI send them.
 * The per-token events are built from a fixed prefix and suffix around the
 * JSON-escaped text: at tens of thousands of tokens per second a JSON.stringify
 * of the whole chunk would dominate the simulator's cost.
 */
export interface ChunkIdentity {
  id: string;
  created: number;
  model: string;
  /** `system_fingerprint` of every chunk and body (the release switch sets it); absent: none sent. */
  systemFingerprint?: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * Where reasoning goes: its own `reasoning_content` field (a server with a reasoning parser),
 * nowhere (a gateway that drops the field: the chunk arrives with an empty delta), or into
 * `content` between <think> tags (a chat template without a reasoning parser).
 */
export type ReasoningOutput = 'field' | 'dropped' | 'think-tags';

export interface EncoderOptions {
  reasoning?: ReasoningOutput;
  /** finish_reason "length" goes out as "stop" (a gateway that normalizes it). */
  lengthAsStop?: boolean;
  /** Every tool_calls delta says index 0 (a tool parser that numbers nothing). */
  toolIndexZero?: boolean;
  /** `created` goes out as a string (a proxy that re-encodes the JSON it passes on). */
  createdAsString?: boolean;
}

/** One function call of an answer, as it is streamed: opened with its id and name, then argument fragments. */
export interface ToolCallDelta {
  index: number;
  /** Set on the call's first delta only. */
  open?: { id: string; name: string };
  arguments: string;
}

export interface ChunkEncoder {
  /** The first event: `delta: {role: "assistant", content: ""}`. */
  role(): string;
  /** With a logprob: `logprobs.content[0].logprob` as OpenAI and vLLM send it; without: `logprobs: null`. */
  content(text: string, logprob?: number): string;
  reasoning(text: string): string;
  /** A `tool_calls` delta: the call's id, type and name on its first one, then argument fragments. */
  toolCall(call: ToolCallDelta): string;
  /** Empty delta carrying the finish_reason. */
  finish(reason: string): string;
  /** `choices: []` plus usage, sent when stream_options.include_usage is true. */
  usage(usage: Usage): string;
  done(): string;
}

/**
 * Text with the reasoning written into it between <think> tags, as a server without a reasoning
 * parser sends it: the tag opens at the first reasoning token and closes before the next text.
 */
export function thinkTags(text: (t: string, logprob?: number) => string): {
  content(t: string, logprob?: number): string;
  reasoning(t: string): string;
} {
  let thinking = false;
  return {
    content: (t, logprob) => {
      if (!thinking) return text(t, logprob);
      thinking = false;
      return text(`</think>\n\n${t}`, logprob);
    },
    reasoning: (t) => {
      const open = thinking ? '' : '<think>';
      thinking = true;
      return text(open + t);
    },
  };
}

/** A whole answer with its reasoning written before the text between <think> tags (a non-streamed body). */
export function withThinkTags(reasoning: string, content: string): string {
  return `<think>${reasoning}</think>\n\n${content}`;
}

export function createChunkEncoder(identity: ChunkIdentity, options: EncoderOptions = {}): ChunkEncoder {
  const created = options.createdAsString ? JSON.stringify(String(identity.created)) : String(identity.created);
  const fingerprint = identity.systemFingerprint ? `"system_fingerprint":${JSON.stringify(identity.systemFingerprint)},` : '';
  const head = `data: {"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(identity.model)},${fingerprint}"choices":`;
  const contentPrefix = `${head}[{"index":0,"delta":{"content":`;
  const reasoningPrefix = `${head}[{"index":0,"delta":{"reasoning_content":`;
  const deltaSuffix = '},"logprobs":null,"finish_reason":null}]}\n\n';
  const plainContent = (text: string, logprob?: number) =>
    logprob === undefined
      ? contentPrefix + JSON.stringify(text) + deltaSuffix
      : `${contentPrefix}${JSON.stringify(text)}},"logprobs":{"content":[{"token":${JSON.stringify(text)},"logprob":${logprob},"bytes":null,"top_logprobs":[]}]},"finish_reason":null}]}\n\n`;
  const output = options.reasoning ?? 'field';
  // think-tags: the reasoning written into the content
  const tagged = thinkTags(plainContent);
  return {
    role: () => `${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
    content: tagged.content,
    reasoning: (text) => {
      if (output === 'field') return reasoningPrefix + JSON.stringify(text) + deltaSuffix;
      if (output === 'dropped') return `${head}[{"index":0,"delta":{${deltaSuffix}`;
      return tagged.reasoning(text);
    },
    toolCall: (call) => {
      const index = options.toolIndexZero ? 0 : call.index;
      const open = call.open ? `"id":${JSON.stringify(call.open.id)},"type":"function",` : '';
      const name = call.open ? `"name":${JSON.stringify(call.open.name)},` : '';
      return `${head}[{"index":0,"delta":{${call.open ? '"role":"assistant","content":null,' : ''}"tool_calls":[{"index":${index},${open}"function":{${name}"arguments":${JSON.stringify(call.arguments)}}}]${deltaSuffix}`;
    },
    finish: (reason) =>
      `${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":${JSON.stringify(options.lengthAsStop && reason === 'length' ? 'stop' : reason)}}]}\n\n`,
    usage: (usage) => `${head}[],"usage":${JSON.stringify(usage)}}\n\n`,
    done: () => 'data: [DONE]\n\n',
  };
}

/** A whole function call of a non-streamed answer. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The non-streamed response body (`stream: false`, or the fault-json scenario). */
export function completionBody(
  identity: ChunkIdentity,
  answer: { content: string; reasoning: string; toolCalls?: readonly ToolCall[] },
  finishReason: string | null,
  usage: Usage,
  options: EncoderOptions = {},
): string {
  const { reasoning, toolCalls = [] } = answer;
  const tagged = options.reasoning === 'think-tags' && reasoning.length > 0;
  const content = tagged ? withThinkTags(reasoning, answer.content) : answer.content;
  const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length > 0 && content === '' ? null : content };
  if (reasoning.length > 0 && (options.reasoning ?? 'field') === 'field') message.reasoning_content = reasoning;
  if (toolCalls.length > 0)
    message.tool_calls = toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return JSON.stringify({
    id: identity.id,
    object: 'chat.completion',
    created: options.createdAsString ? String(identity.created) : identity.created,
    model: identity.model,
    ...(identity.systemFingerprint ? { system_fingerprint: identity.systemFingerprint } : {}),
    choices: [
      { index: 0, message, logprobs: null, finish_reason: options.lengthAsStop && finishReason === 'length' ? 'stop' : finishReason },
    ],
    usage,
  });
}

/** OpenAI's error shape: `{"error": {"message", "type", "param", "code"}}`. */
export function errorBody(message: string, type: string, code: string | number | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}
