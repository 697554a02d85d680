import { createParser } from 'eventsource-parser';
import type { BodyPiece } from '../../client/httpExchange.js';
import { isObject, type Json } from './checkTypes.js';

/**
 * The two shapes of an answer the checks read, parsed once and kept whole (the checks look at
 * fields a stream client throws away): a non-streamed chat.completion body, and a stream as its
 * timed events. Pure: pieces of text with their arrival times in, figures out.
 */

/** Where a usage figure was found: the standard field, or a vendor's documented place for it. */
export type UsageSource = 'usage' | 'x_groq.usage' | 'timings';

export interface UsageFigures {
  prompt: unknown;
  completion: unknown;
  total: unknown;
  from: UsageSource;
}

/** Reasoning a message or a delta carried, and in which field (vLLM/DeepSeek, OpenRouter/Ollama, OpenRouter's details, typed parts). */
export interface ReasoningText {
  text: string;
  fields: string[];
}

export function reasoningOf(m: Json): ReasoningText {
  const fields: string[] = [];
  let text = '';
  // servers that send reasoning_content and reasoning with the same text: one of them
  if (typeof m['reasoning_content'] === 'string' && m['reasoning_content'] !== '') {
    text = m['reasoning_content'];
    fields.push('reasoning_content');
  } else if (typeof m['reasoning'] === 'string' && m['reasoning'] !== '') {
    text = m['reasoning'];
    fields.push('reasoning');
  }
  const details = m['reasoning_details'];
  if (Array.isArray(details) && details.length > 0) {
    fields.push('reasoning_details');
    if (text === '') for (const d of details) if (isObject(d) && typeof d['text'] === 'string') text += d['text'];
  }
  const content = m['content'];
  if (Array.isArray(content)) {
    for (const part of content) {
      if (isObject(part) && part['type'] === 'thinking') {
        if (!fields.includes('content[].thinking')) fields.push('content[].thinking');
        const t = part['thinking'];
        if (typeof t === 'string') text += t;
        else if (Array.isArray(t)) for (const p of t) if (isObject(p) && typeof p['text'] === 'string') text += p['text'];
      }
    }
  }
  return { text, fields };
}

/** The answer's text: a string content, or the text parts of a list of parts. */
export function contentOf(m: Json): string {
  const c = m['content'];
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c.map((p) => (isObject(p) && p['type'] === 'text' && typeof p['text'] === 'string' ? p['text'] : '')).join('');
}

function usageOf(chunk: Json): UsageFigures | null {
  const u = chunk['usage'];
  if (isObject(u)) return { prompt: u['prompt_tokens'], completion: u['completion_tokens'], total: u['total_tokens'], from: 'usage' };
  const groq = chunk['x_groq'];
  if (isObject(groq) && isObject(groq['usage'])) {
    const g = groq['usage'];
    return { prompt: g['prompt_tokens'], completion: g['completion_tokens'], total: g['total_tokens'], from: 'x_groq.usage' };
  }
  const t = chunk['timings'];
  if (isObject(t) && typeof t['predicted_n'] === 'number')
    return { prompt: t['prompt_n'], completion: t['predicted_n'], total: null, from: 'timings' };
  return null;
}

export interface CompletionAnswer {
  json: Json;
  /** choices[0] (null when there is none or it is not an object). */
  choice: Json | null;
  message: Json | null;
  content: unknown;
  reasoning: ReasoningText;
  finishReason: unknown;
  usage: UsageFigures | null;
  model: unknown;
  toolCalls: unknown;
}

/** A non-streamed body as JSON, or null when it is not a JSON object. */
export function readCompletion(body: string): CompletionAnswer | null {
  const json = jsonObject(body);
  return json === null ? null : completionOf(json);
}

/** A body parsed as one JSON object, or null. */
export function jsonObject(body: string): Json | null {
  try {
    const json: unknown = JSON.parse(body);
    return isObject(json) ? json : null;
  } catch {
    return null;
  }
}

/** A chat.completion body as the checks read it. */
export function completionOf(json: Json): CompletionAnswer {
  const choices = json['choices'];
  const choice = Array.isArray(choices) && isObject(choices[0]) ? choices[0] : null;
  const message = choice && isObject(choice['message']) ? choice['message'] : null;
  return {
    json,
    choice,
    message,
    content: message ? message['content'] : undefined,
    reasoning: message ? reasoningOf(message) : { text: '', fields: [] },
    finishReason: choice ? choice['finish_reason'] : undefined,
    usage: usageOf(json),
    model: json['model'],
    toolCalls: message ? message['tool_calls'] : undefined,
  };
}

/** One `tool_calls` entry of a delta, as it came. */
export interface ToolDelta {
  atMs: number;
  index: unknown;
  id: unknown;
  name: unknown;
  arguments: unknown;
}

export interface StreamAnswer {
  /** Every data event but [DONE], with its arrival and its JSON (null: not a JSON object). */
  events: { atMs: number; data: string; json: Json | null }[];
  /** `data: [DONE]` arrived, and when. */
  done: boolean;
  doneAtMs: number | null;
  comments: number;
  content: string;
  reasoning: string;
  reasoningFields: string[];
  /** Each delta that carried text: when, how many UTF-8 bytes, which channel. */
  textDeltas: { atMs: number; bytes: number; channel: 'content' | 'reasoning' }[];
  toolDeltas: ToolDelta[];
  /** The non-empty finish_reason values, in order. */
  finishReasons: string[];
  /** The last usage figures of the stream, and whether the chunk that carried them had no choices. */
  usage: UsageFigures | null;
  usageChunkChoices: number | null;
  /** Distinct non-empty `model` values (Azure's first chunk names none). */
  models: string[];
  /** Distinct `system_fingerprint` values. */
  fingerprints: string[];
  /** An `{"error": ...}` event came in the stream. */
  errorEvent: boolean;
}

/**
 * How another API's event reads as a chat chunk: the chunk, and whether the event ended the
 * stream as `data: [DONE]` does (a responses stream has no [DONE]).
 */
export type ChunkMap = (event: Json) => { chunk: Json; done: boolean };

/**
 * A stream from its timed pieces: each event is stamped with the arrival of the read that
 * completed it. `map`: the events of another API, read as chat chunks (the events keep their own JSON).
 */
export function readStreamAnswer(pieces: readonly BodyPiece[], map?: ChunkMap): StreamAnswer {
  const out: StreamAnswer = {
    events: [],
    done: false,
    doneAtMs: null,
    comments: 0,
    content: '',
    reasoning: '',
    reasoningFields: [],
    textDeltas: [],
    toolDeltas: [],
    finishReasons: [],
    usage: null,
    usageChunkChoices: null,
    models: [],
    fingerprints: [],
    errorEvent: false,
  };
  let atMs = 0;
  const parser = createParser({
    onComment: () => out.comments++,
    onEvent: (event) => {
      const data = event.data;
      if (data.trim() === '[DONE]') {
        if (!out.done) out.doneAtMs = atMs;
        out.done = true;
        return;
      }
      let json: Json | null = null;
      try {
        const v: unknown = JSON.parse(data);
        json = isObject(v) ? v : null;
      } catch {
        json = null;
      }
      out.events.push({ atMs, data, json });
      if (json && map) {
        const mapped = map(json);
        if (mapped.done && !out.done) {
          out.done = true;
          out.doneAtMs = atMs;
        }
        readChunk(mapped.chunk, atMs, out);
      } else if (json) readChunk(json, atMs, out);
    },
  });
  for (const piece of pieces) {
    atMs = piece.atMs;
    parser.feed(piece.text);
  }
  // a last event without its blank line still counts (some servers end so)
  parser.feed('\n\n');
  return out;
}

function addOnce(list: string[], v: unknown): void {
  if (typeof v === 'string' && v !== '' && !list.includes(v)) list.push(v);
}

function readChunk(chunk: Json, atMs: number, out: StreamAnswer): void {
  if (chunk['error'] !== undefined && chunk['choices'] === undefined) out.errorEvent = true;
  addOnce(out.models, chunk['model']);
  addOnce(out.fingerprints, chunk['system_fingerprint']);
  const usage = usageOf(chunk);
  if (usage) {
    out.usage = usage;
    out.usageChunkChoices = Array.isArray(chunk['choices']) ? chunk['choices'].length : null;
  }
  const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
  for (const choice of choices) {
    if (!isObject(choice)) continue;
    if (typeof choice['finish_reason'] === 'string' && choice['finish_reason'] !== '') out.finishReasons.push(choice['finish_reason']);
    const delta = choice['delta'];
    if (!isObject(delta)) continue;
    const content = contentOf(delta);
    const reasoning = reasoningOf(delta);
    for (const f of reasoning.fields) addOnce(out.reasoningFields, f);
    if (content !== '') {
      out.content += content;
      out.textDeltas.push({ atMs, bytes: Buffer.byteLength(content, 'utf8'), channel: 'content' });
    }
    if (reasoning.text !== '') {
      out.reasoning += reasoning.text;
      out.textDeltas.push({ atMs, bytes: Buffer.byteLength(reasoning.text, 'utf8'), channel: 'reasoning' });
    }
    const calls = delta['tool_calls'];
    if (Array.isArray(calls)) {
      for (const c of calls) {
        if (!isObject(c)) continue;
        const fn = isObject(c['function']) ? c['function'] : {};
        out.toolDeltas.push({ atMs, index: c['index'], id: c['id'], name: fn['name'], arguments: fn['arguments'] });
      }
    }
  }
}
