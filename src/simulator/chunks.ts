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
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChunkEncoder {
  /** The first event: `delta: {role: "assistant", content: ""}`. */
  role(): string;
  /** With a logprob: `logprobs.content[0].logprob` as OpenAI and vLLM send it; without: `logprobs: null`. */
  content(text: string, logprob?: number): string;
  reasoning(text: string): string;
  /** Empty delta carrying the finish_reason. */
  finish(reason: string): string;
  /** `choices: []` plus usage, sent when stream_options.include_usage is true. */
  usage(usage: Usage): string;
  done(): string;
}

export function createChunkEncoder(identity: ChunkIdentity): ChunkEncoder {
  const head = `data: {"id":${JSON.stringify(identity.id)},"object":"chat.completion.chunk","created":${identity.created},"model":${JSON.stringify(identity.model)},"choices":`;
  const contentPrefix = `${head}[{"index":0,"delta":{"content":`;
  const reasoningPrefix = `${head}[{"index":0,"delta":{"reasoning_content":`;
  const deltaSuffix = '},"logprobs":null,"finish_reason":null}]}\n\n';
  return {
    role: () => `${head}[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
    content: (text, logprob) =>
      logprob === undefined
        ? contentPrefix + JSON.stringify(text) + deltaSuffix
        : `${contentPrefix}${JSON.stringify(text)}},"logprobs":{"content":[{"token":${JSON.stringify(text)},"logprob":${logprob},"bytes":null,"top_logprobs":[]}]},"finish_reason":null}]}\n\n`,
    reasoning: (text) => reasoningPrefix + JSON.stringify(text) + deltaSuffix,
    finish: (reason) => `${head}[{"index":0,"delta":{},"logprobs":null,"finish_reason":${JSON.stringify(reason)}}]}\n\n`,
    usage: (usage) => `${head}[],"usage":${JSON.stringify(usage)}}\n\n`,
    done: () => 'data: [DONE]\n\n',
  };
}

/** The non-streamed response body (`stream: false`, or the fault-json scenario). */
export function completionBody(
  identity: ChunkIdentity,
  content: string,
  reasoning: string,
  finishReason: string | null,
  usage: Usage,
): string {
  const message: Record<string, unknown> = { role: 'assistant', content };
  if (reasoning.length > 0) message.reasoning_content = reasoning;
  return JSON.stringify({
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage,
  });
}

/** OpenAI's error shape: `{"error": {"message", "type", "param", "code"}}`. */
export function errorBody(message: string, type: string, code: string | number | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}
