/**
 * The one place where the events of the three OpenAI-style APIs a target may speak become the
 * chat-completion chunk the stream accumulator reads, so the analysis, the early close, the
 * metrics and the run pages see the same deltas whatever the API:
 *
 * - chat (`/chat/completions`): the chunk as it came.
 * - completions (`/completions`): `choices[0].text`, finish_reason and usage are read as chat's;
 *   only its logprobs differ (`token_logprobs`, a list of numbers), and are rewritten as chat's.
 * - responses (`/responses`): typed events. `response.output_text.delta` is content;
 *   `response.reasoning_text.delta` (vLLM, open models) or `response.reasoning_summary_text.delta`
 *   (OpenAI's summaries) is reasoning; `response.completed` and `response.incomplete` carry the
 *   model, the usage (input_tokens, output_tokens) and the status that becomes the finish reason;
 *   `response.failed` and `error` are server errors. The stream has no `[DONE]`: its last event
 *   (completed, incomplete or failed) ends it.
 *
 * Pure, like the accumulator: a value in, a value out, no throwing on odd input.
 */

export type StreamApi = 'chat' | 'completions' | 'responses';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A chunk in chat's shape, and whether the event ended the stream as `[DONE]` does. */
export interface ApiChunk {
  chunk: unknown;
  done: boolean;
}

/** The finish reason of a finished or incomplete response, in chat's words. */
function finishReasonOf(response: Json): string | null {
  if (response.status === 'completed') return 'stop';
  if (response.status !== 'incomplete') return null;
  const reason = isObject(response.incomplete_details) ? response.incomplete_details.reason : undefined;
  // max_output_tokens is chat's length; content_filter keeps its name; anything else is said as given
  if (reason === 'max_output_tokens') return 'length';
  return typeof reason === 'string' && reason !== '' ? reason : 'incomplete';
}

/** A response's usage in chat's names; undefined when it has none. */
function usageOf(response: Json): Json | undefined {
  const usage = response.usage;
  if (!isObject(usage)) return undefined;
  return { completion_tokens: usage.output_tokens, prompt_tokens: usage.input_tokens };
}

/** A completions choice's token_logprobs as chat's logprobs.content, so logprobTrace reads them. */
function completionsChunk(chunk: unknown): unknown {
  if (!isObject(chunk) || !Array.isArray(chunk.choices)) return chunk;
  const choice = chunk.choices[0];
  if (!isObject(choice) || !isObject(choice.logprobs) || !Array.isArray(choice.logprobs.token_logprobs)) return chunk;
  const content = (choice.logprobs.token_logprobs as unknown[]).map((logprob) => ({ logprob }));
  return { ...chunk, choices: [{ ...choice, logprobs: { content } }] };
}

/**
 * Maps the events of one stream (one instance per stream: a responses stream that sends raw
 * reasoning text is not also credited its summary of that text).
 */
export class ApiChunks {
  private reasoningText = false;

  constructor(readonly api: StreamApi = 'chat') {}

  /** The chunk to accumulate for one parsed `data:` value. */
  map(value: unknown): ApiChunk {
    if (this.api === 'chat') return { chunk: value, done: false };
    if (this.api === 'completions') return { chunk: completionsChunk(value), done: false };
    return this.responsesEvent(value);
  }

  private responsesEvent(event: unknown): ApiChunk {
    if (!isObject(event)) return { chunk: event, done: false };
    const delta = typeof event.delta === 'string' ? event.delta : '';
    switch (event.type) {
      case 'response.output_text.delta': {
        const choice: Json = { index: 0, delta: { content: delta } };
        if (Array.isArray(event.logprobs)) choice.logprobs = { content: event.logprobs };
        return { chunk: { choices: [choice] }, done: false };
      }
      case 'response.reasoning_text.delta':
        this.reasoningText = true;
        return { chunk: { choices: [{ index: 0, delta: { reasoning: delta } }] }, done: false };
      case 'response.reasoning_summary_text.delta':
        // A server that streams the reasoning itself and then a summary of it: the summary is not more output.
        return { chunk: this.reasoningText ? {} : { choices: [{ index: 0, delta: { reasoning: delta } }] }, done: false };
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued':
        return { chunk: isObject(event.response) ? { model: event.response.model } : {}, done: false };
      case 'response.completed':
      case 'response.incomplete': {
        const response = isObject(event.response) ? event.response : {};
        const finish = finishReasonOf(response);
        return {
          chunk: {
            model: response.model,
            ...(finish !== null ? { choices: [{ index: 0, delta: {}, finish_reason: finish }] } : {}),
            usage: usageOf(response),
          },
          done: true,
        };
      }
      case 'response.failed': {
        const response = isObject(event.response) ? event.response : {};
        const error = isObject(response.error) ? response.error : { message: 'the response failed (response.failed)' };
        return { chunk: { model: response.model, error }, done: false };
      }
      case 'error':
        // the `error` event without its SSE event line: its fields are the error
        return { chunk: { error: { message: event.message, code: event.code, param: event.param } }, done: false };
      default:
        // output_item, content_part, *.done and other events carry nothing the analysis reads
        return { chunk: {}, done: false };
    }
  }
}

/**
 * The API of a captured stream (`probe --save`, `curl -N`), which says nothing else about it:
 * responses when its events are typed `response.*`, else chat (a completions capture reads the
 * same as chat's: choices[0].text).
 */
export function apiOfCapture(text: string): StreamApi {
  return /^event:\s*response\.|"type"\s*:\s*"response\./m.test(text.slice(0, 65_536)) ? 'responses' : 'chat';
}

/**
 * A non-streamed answer (a server that ignored stream: true) in chat's shape: a completions body
 * already is; a response's output items become one message with its content and reasoning.
 */
export function chatCompletionOf(api: StreamApi, body: unknown): unknown {
  if (api === 'completions') return completionsChunk(body);
  if (api !== 'responses' || !isObject(body) || body.object !== 'response') return body;
  let content = '';
  let reasoning = '';
  let summary = '';
  for (const item of Array.isArray(body.output) ? (body.output as unknown[]) : []) {
    if (!isObject(item)) continue;
    if (item.type === 'message') content += textsOf(item.content, 'output_text');
    else if (item.type === 'reasoning') {
      reasoning += textsOf(item.content, 'reasoning_text');
      summary += textsOf(item.summary, 'summary_text');
    }
  }
  const finish = finishReasonOf(body);
  return {
    model: body.model,
    ...(body.error != null ? { error: body.error } : {}),
    choices: [{ index: 0, message: { content, reasoning: reasoning || summary }, finish_reason: finish }],
    usage: usageOf(body),
  };
}

/** The text of the parts of one type in a list of content parts. */
function textsOf(parts: unknown, type: string): string {
  if (!Array.isArray(parts)) return '';
  let text = '';
  for (const part of parts as unknown[]) if (isObject(part) && part.type === type && typeof part.text === 'string') text += part.text;
  return text;
}
