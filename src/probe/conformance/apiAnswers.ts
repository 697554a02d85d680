import type { BodyPiece } from '../../client/httpExchange.js';
import { ApiChunks, type StreamApi } from '../../core/apiChunks.js';
import { isObject, type Json } from './checkTypes.js';
import {
  completionOf,
  jsonObject,
  readCompletion,
  readStreamAnswer,
  type ChunkMap,
  type CompletionAnswer,
  type ReasoningText,
  type StreamAnswer,
  type UsageFigures,
} from './readAnswers.js';

/**
 * The answers of the completions and responses APIs read into the shapes the checks judge
 * (CompletionAnswer, StreamAnswer), so one check reads any API; the raw JSON is kept for the
 * field audit. Pure.
 *
 * - completions: `choices[0].text` is the content; finish_reason and usage are chat's.
 * - responses: the `output_text` parts of the `message` items are the content, `reasoning`
 *   items the reasoning, `function_call` items the tool calls (call_id, name, arguments);
 *   `status` is the finish reason in chat's words (completed: stop, or tool_calls when the
 *   response called a function; incomplete for max_output_tokens: length); usage's
 *   input_tokens and output_tokens are prompt and completion tokens.
 */

/** A non-streamed answer of the API, or null when the body is not a JSON object. */
export function readApiCompletion(api: StreamApi, body: string): CompletionAnswer | null {
  if (api === 'chat') return readCompletion(body);
  const json = jsonObject(body);
  if (json === null) return null;
  return api === 'completions' ? completionsAnswer(json) : responseAnswer(json);
}

/** A streamed answer of the API from its timed pieces. */
export function readApiStream(api: StreamApi, pieces: readonly BodyPiece[]): StreamAnswer {
  if (api === 'chat') return readStreamAnswer(pieces);
  if (api === 'completions') return readStreamAnswer(pieces, completionsChunk);
  const s = readStreamAnswer(pieces, responsesChunks());
  // its reasoning came in typed events, read as chat's `reasoning` delta: named as they came
  return { ...s, reasoningFields: s.reasoningFields.map((f) => (f === 'reasoning' ? 'reasoning events' : f)) };
}

function completionsAnswer(json: Json): CompletionAnswer {
  const answer = completionOf(json);
  return { ...answer, content: answer.choice ? answer.choice['text'] : undefined };
}

/** A completions chunk as chat's: each choice's text as its delta's content. */
const completionsChunk: ChunkMap = (chunk) => {
  const choices = chunk['choices'];
  if (!Array.isArray(choices)) return { chunk, done: false };
  return {
    chunk: {
      ...chunk,
      choices: choices.map((c) =>
        isObject(c) ? { index: c['index'], delta: { content: c['text'] }, finish_reason: c['finish_reason'] } : c,
      ),
    },
    done: false,
  };
};

/** The finish reason of a response in chat's words; a status clients do not know is given as it is. */
export function responseFinish(response: Json, called: boolean): unknown {
  const status = response['status'];
  if (status === 'completed') return called ? 'tool_calls' : 'stop';
  if (status !== 'incomplete') return status;
  const details = response['incomplete_details'];
  const reason = isObject(details) ? details['reason'] : undefined;
  if (reason === 'max_output_tokens') return 'length';
  return typeof reason === 'string' && reason !== '' ? reason : 'incomplete';
}

/** A response's usage in chat's names, with its hidden reasoning tokens. */
export function responseUsage(response: Json): Json | undefined {
  const u = response['usage'];
  if (!isObject(u)) return undefined;
  const details = u['output_tokens_details'];
  return {
    prompt_tokens: u['input_tokens'],
    completion_tokens: u['output_tokens'],
    total_tokens: u['total_tokens'],
    ...(isObject(details) ? { completion_tokens_details: { reasoning_tokens: details['reasoning_tokens'] } } : {}),
  };
}

/** The texts of the parts of one type. */
function partsText(parts: unknown, type: string): string {
  if (!Array.isArray(parts)) return '';
  return parts.map((p) => (isObject(p) && p['type'] === type && typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

function responseAnswer(json: Json): CompletionAnswer {
  const output = Array.isArray(json['output']) ? json['output'].filter(isObject) : [];
  const messages = output.filter((item) => item['type'] === 'message');
  const reasoning: ReasoningText = { text: '', fields: [] };
  for (const item of output.filter((i) => i['type'] === 'reasoning')) {
    const text = partsText(item['content'], 'reasoning_text');
    const summary = partsText(item['summary'], 'summary_text');
    if (text !== '' && !reasoning.fields.includes('reasoning_text')) reasoning.fields.push('reasoning_text');
    if (summary !== '' && !reasoning.fields.includes('summary_text')) reasoning.fields.push('summary_text');
    reasoning.text += text || summary;
  }
  const calls = output.filter((item) => item['type'] === 'function_call');
  const u = responseUsage(json);
  const usage: UsageFigures | null = u
    ? { prompt: u['prompt_tokens'], completion: u['completion_tokens'], total: u['total_tokens'], from: 'usage' }
    : null;
  return {
    json,
    choice: null,
    message: messages[0] ?? null,
    // no message item: no text (as chat's null content)
    content: messages.length > 0 ? messages.map((m) => partsText(m['content'], 'output_text')).join('') : undefined,
    reasoning,
    finishReason: responseFinish(json, calls.length > 0),
    usage,
    model: json['model'],
    toolCalls:
      calls.length > 0
        ? calls.map((c) => ({ id: c['call_id'], type: 'function', function: { name: c['name'], arguments: c['arguments'] } }))
        : undefined,
  };
}

/**
 * The events of one responses stream as chat chunks: text and reasoning deltas, the lifecycle
 * events' model, as src/core/apiChunks.ts reads them for the analysis; on top, what only the
 * checks read: function calls (an output item opened with its call_id and name, then argument
 * deltas under its output_index), the full usage, and tool_calls as the finish of a completed
 * response that called a function.
 */
function responsesChunks(): ChunkMap {
  const base = new ApiChunks('responses');
  let called = false;
  const toolDelta = (index: unknown, call: Json): Json => ({ choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] } }] });
  return (event) => {
    const type = event['type'];
    const item = event['item'];
    if (type === 'response.output_item.added' && isObject(item) && item['type'] === 'function_call') {
      called = true;
      const args = typeof item['arguments'] === 'string' ? item['arguments'] : '';
      return {
        chunk: toolDelta(event['output_index'], {
          id: item['call_id'],
          type: 'function',
          function: { name: item['name'], arguments: args },
        }),
        done: false,
      };
    }
    if (type === 'response.function_call_arguments.delta')
      return { chunk: toolDelta(event['output_index'], { function: { arguments: event['delta'] } }), done: false };
    const mapped = base.map(event);
    const chunk = isObject(mapped.chunk) ? mapped.chunk : {};
    const response = event['response'];
    if ((type === 'response.completed' || type === 'response.incomplete') && isObject(response)) {
      const usage = responseUsage(response);
      return {
        chunk: {
          model: response['model'],
          choices: [{ index: 0, delta: {}, finish_reason: responseFinish(response, called) }],
          ...(usage ? { usage } : {}),
        },
        done: true,
      };
    }
    return { chunk, done: mapped.done };
  };
}
