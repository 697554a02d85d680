import { createParser, type EventSourceParser } from 'eventsource-parser';
import { chunkLogprobs, LogprobTrace, type LogprobSummary } from './logprobTrace.js';
import { ApiChunks, chatCompletionOf, type StreamApi } from './apiChunks.js';

/**
 * Pure accumulation of an OpenAI-compatible chat-completion SSE body:
 * bytes → UTF-8 text → SSE events → chunks → one accumulated result.
 * A completions or responses stream is read the same way, its events first put in chat's
 * shape by apiChunks.ts.
 *
 * No I/O and no clock: every timestamp is passed in by the caller (milliseconds on
 * any monotonic scale). A bad event never throws; it becomes `error` with a stable type.
 */

/** One framed SSE message: an event (its type and data) or a comment line. */
export interface SseMessage {
  comment?: boolean;
  event?: string | undefined;
  data: string;
}

/** Errors the stream body itself can carry. The client adds transport errors on top. */
export type SseErrorType = 'malformed' | 'server_error_event';

export interface SseError {
  type: SseErrorType;
  message: string;
}

export interface StreamAccumulation {
  content: string;
  reasoning: string;
  finishReason: string | null;
  /** vLLM's stop_reason (e.g. "repetition_detected" or a stop token id), else null. */
  stopReason: string | number | null;
  /** completion_tokens from usage when the server sent it, else the count of token-carrying deltas. */
  outputTokens: number;
  outputTokensSource: 'usage' | 'deltas';
  promptTokens: number | null;
  /** Chunks that carried a non-empty content or reasoning delta. */
  tokenDeltas: number;
  /** SSE data events that carried a JSON chunk (role-only, usage-only and error chunks included). */
  chunks: number;
  /** SSE comment lines seen (": keep-alive", ": OPENROUTER PROCESSING"). */
  comments: number;
  /** Bytes pushed (after any caller cap). */
  bytes: number;
  /** `data: [DONE]` was seen. */
  done: boolean;
  /** [DONE] or a finish_reason was seen: the server said it was finished. */
  endedCleanly: boolean;
  /** Timestamps (caller's scale, ms) of the first token-carrying chunk, first content chunk, last token chunk. */
  firstTokenAtMs: number | null;
  firstContentAtMs: number | null;
  lastTokenAtMs: number | null;
  /** Gaps between consecutive token-carrying chunks, ms (0 when they arrived in one read). */
  gapsMs: number[];
  maxGapMs: number;
  /** Bad events after the first one are counted here; the first one is `error`. */
  badEvents: number;
  /** Content parts of types that are neither text nor thinking (images, audio, ...): kept out of both channels, counted. */
  unknownContentParts: number;
  /** The first bad event, or null. */
  error: SseError | null;
  /** Figures of the per-token logprobs (choices[].logprobs.content[].logprob); null when the server sent none. */
  logprobs: LogprobSummary | null;
  /** The last non-empty `model` a chunk named (what the server says served the request); null when none did. */
  servedModel: string | null;
  /** The last non-empty `system_fingerprint` of a chunk (OpenAI, vLLM); null when none came. */
  systemFingerprint: string | null;
}

/** What one push added: feed contentDelta/reasoningDelta to an incremental analyzer. */
export interface StreamDelta {
  contentDelta: string;
  reasoningDelta: string;
  /** Output tokens so far (usage when the server reports it, else token-carrying deltas). */
  tokens: number;
  /** Token-carrying chunks in this push. */
  tokenChunks: number;
  /** True when this push saw [DONE]. */
  done: boolean;
  /** Set when this push recorded the stream's first bad event. */
  error: SseError | null;
}

/** Gaps kept per sample; beyond this only maxGapMs is updated (a 10k-token sample needs 10k). */
const MAX_GAPS_KEPT = 100_000;
const SNIPPET_CHARS = 120;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}

function errorMessageOf(error: unknown, clean: (text: string) => string = (t) => t): string {
  if (typeof error === 'string') return error;
  if (isObject(error)) {
    const parts: string[] = [];
    if (typeof error.message === 'string') parts.push(error.message);
    for (const key of ['type', 'code'] as const) {
      const v = error[key];
      if (typeof v === 'string' || typeof v === 'number') parts.push(`${key}=${v}`);
    }
    if (parts.length > 0) return parts.join(' ');
  }
  return snippet(clean(JSON.stringify(error) ?? String(error)));
}

/** A token count a server may report: a non-negative safe integer, else ignored (deltas are counted instead). */
function countOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

function tokenCount(usage: unknown): { completion: number | null; prompt: number | null } | null {
  if (!isObject(usage)) return null;
  const completion = countOf(usage.completion_tokens);
  const prompt = countOf(usage.prompt_tokens);
  if (completion === null && prompt === null) return null;
  return { completion, prompt };
}

/** Content and reasoning of a delta (or of a non-streamed message), and content parts of unknown types. */
function textOf(delta: Json): { content: string; reasoning: string; unknownParts: number } {
  // vLLM/SGLang/DeepSeek say reasoning_content; OpenRouter (and newer vLLM) say reasoning.
  // Some servers send both with the same text, so take one, never both.
  let reasoning = '';
  if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') {
    reasoning = delta.reasoning_content;
  } else if (typeof delta.reasoning === 'string') {
    reasoning = delta.reasoning;
  }
  if (typeof delta.content === 'string') return { content: delta.content, reasoning, unknownParts: 0 };
  if (!Array.isArray(delta.content)) return { content: '', reasoning, unknownParts: 0 };
  // Mistral's reasoning models send content as typed parts, mixed with plain string deltas:
  // [{"type":"thinking","thinking":[{"type":"text","text":"…"}]}, {"type":"text","text":"3"}].
  let content = '';
  let unknownParts = 0;
  for (const part of delta.content as unknown[]) {
    if (!isObject(part)) {
      unknownParts++;
    } else if (part.type === 'text' && typeof part.text === 'string') {
      content += part.text;
    } else if (part.type === 'thinking') {
      const t = textOfParts(part.thinking);
      if (t === null) unknownParts++;
      else reasoning += t;
    } else {
      unknownParts++; // images, audio, tool parts: neither the answer's text nor its reasoning
    }
  }
  return { content, reasoning, unknownParts };
}

/** The text of a thinking part: a string, or text parts (null when it is neither). */
function textOfParts(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return null;
  let out = '';
  for (const p of v as unknown[]) {
    if (typeof p === 'string') out += p;
    else if (isObject(p) && p.type === 'text' && typeof p.text === 'string') out += p.text;
    else return null;
  }
  return out;
}

export class StreamAccumulator {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private readonly state: StreamAccumulation = {
    content: '',
    reasoning: '',
    finishReason: null,
    stopReason: null,
    outputTokens: 0,
    outputTokensSource: 'deltas',
    promptTokens: null,
    tokenDeltas: 0,
    chunks: 0,
    comments: 0,
    bytes: 0,
    done: false,
    endedCleanly: false,
    firstTokenAtMs: null,
    firstContentAtMs: null,
    lastTokenAtMs: null,
    gapsMs: [],
    maxGapMs: 0,
    badEvents: 0,
    unknownContentParts: 0,
    error: null,
    logprobs: null,
    servedModel: null,
    systemFingerprint: null,
  };
  // Bounded: a running sum and the last 256 values, however long the stream.
  private readonly trace = new LogprobTrace();
  private usageCompletion: number | null = null;
  // The text as received, one string per delta, joined when the result is read: a string grown
  // by += of every delta is a rope in V8 (a node per delta, ~5x the text), and a finished
  // sample's text is kept for the run history.
  private readonly contentParts = new TextParts();
  private readonly reasoningParts = new TextParts();
  // Per-push scratch, reset at the start of each push.
  private nowMs = 0;
  private contentDelta = '';
  private reasoningDelta = '';
  private pushTokenChunks = 0;
  private pushDone = false;
  private pushError: SseError | null = null;
  /** While flushing at end of input, an unparseable tail is a cut line, not garbage. */
  private flushing = false;
  private finished = false;
  private readonly apiChunks: ApiChunks;

  /**
   * @param clean applied to server text before it is cut into an error snippet, so a secret
   *   the server echoes back is removed whole, never cut in half (the client passes its redaction).
   * @param onContent called with each chunk's content delta as it is read (a captured stream's
   *   reader uses it for token offsets without splitting the capture into events first).
   * @param api the API whose events the body carries (apiChunks.ts); default chat.
   */
  constructor(
    private readonly clean: (text: string) => string = (t) => t,
    private readonly onContent?: (delta: string) => void,
    api: StreamApi = 'chat',
  ) {
    this.apiChunks = new ApiChunks(api);
    this.parser = createParser({
      onEvent: (event) => this.onEvent(event),
      onComment: () => {
        this.state.comments++;
      },
    });
  }

  /** Push raw body bytes that arrived at `nowMs`. */
  push(bytes: Uint8Array, nowMs: number): StreamDelta {
    this.begin(nowMs);
    if (!this.finished) {
      this.state.bytes += bytes.byteLength;
      const text = this.decoder.decode(bytes, { stream: true });
      if (text !== '') this.parser.feed(text);
    }
    return this.delta();
  }

  /** Push already-decoded text (a captured stream read as a string). */
  pushText(text: string, nowMs: number): StreamDelta {
    this.begin(nowMs);
    if (!this.finished && text !== '') {
      const first = this.state.bytes === 0;
      this.state.bytes += Buffer.byteLength(text, 'utf8');
      // TextDecoder drops a BOM from bytes; text read elsewhere may still start with one.
      this.parser.feed(first && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    }
    return this.delta();
  }

  /**
   * Push the events of one read, already framed (the client decodes and frames the body
   * itself). `final` marks the events flushed at end of input, whose unparseable tail is a cut
   * line rather than garbage.
   */
  pushEvents(events: readonly SseMessage[], nowMs: number, final = false): StreamDelta {
    this.begin(nowMs);
    if (!this.finished) {
      this.flushing = final;
      for (const message of events) {
        if (message.comment) this.state.comments++;
        else this.onEvent(message);
      }
      this.flushing = false;
    }
    return this.delta();
  }

  /**
   * End of input: flush a trailing partial UTF-8 sequence and a last event that lacks its
   * blank line (some servers end with "data: [DONE]" and no newline). Idempotent.
   */
  end(nowMs: number): StreamDelta {
    this.begin(nowMs);
    if (!this.finished) {
      this.finished = true;
      this.flushing = true;
      // Two line feeds end a partial line and then dispatch the pending event.
      this.parser.feed(`${this.decoder.decode()}\n\n`);
      this.parser.reset();
      this.flushing = false;
    }
    return this.delta();
  }

  /** The accumulated result so far (a snapshot; later pushes do not change it except gapsMs). */
  result(): StreamAccumulation {
    const s = this.state;
    return {
      ...s,
      content: this.contentParts.text(),
      reasoning: this.reasoningParts.text(),
      outputTokens: this.outputTokens(),
      outputTokensSource: this.usedUsage() ? 'usage' : 'deltas',
      endedCleanly: s.done || s.finishReason !== null,
      logprobs: this.trace.summary(),
    };
  }

  /** `data: [DONE]` was seen. */
  isDone(): boolean {
    return this.state.done;
  }

  /** Chunks seen so far (cheap; result() copies). */
  chunkCount(): number {
    return this.state.chunks;
  }

  /** Output tokens so far: usage when reported (and plausible), else the token-carrying deltas. */
  outputTokens(): number {
    return this.usedUsage() ? (this.usageCompletion as number) : this.state.tokenDeltas;
  }

  private usedUsage(): boolean {
    // A proxy that reports completion_tokens: 0 for a stream that carried text is not believed.
    return this.usageCompletion !== null && !(this.usageCompletion === 0 && this.state.tokenDeltas > 0);
  }

  private begin(nowMs: number): void {
    this.nowMs = nowMs;
    this.contentDelta = '';
    this.reasoningDelta = '';
    this.pushTokenChunks = 0;
    this.pushDone = false;
    this.pushError = null;
  }

  private delta(): StreamDelta {
    return {
      contentDelta: this.contentDelta,
      reasoningDelta: this.reasoningDelta,
      tokens: this.outputTokens(),
      tokenChunks: this.pushTokenChunks,
      done: this.pushDone,
      error: this.pushError,
    };
  }

  private recordError(type: SseErrorType, message: string): void {
    if (this.state.error === null) {
      this.state.error = { type, message };
      this.pushError = this.state.error;
    } else {
      this.state.badEvents++;
    }
  }

  private onEvent(event: SseMessage): void {
    if (this.state.done) return;
    const data = event.data;
    if (data === '[DONE]' || (data.length < 16 && data.trim() === '[DONE]')) {
      this.state.done = true;
      this.pushDone = true;
      return;
    }
    if (event.event === 'error') {
      let message = snippet(this.clean(data));
      try {
        const body: unknown = JSON.parse(data);
        message = errorMessageOf(isObject(body) && body.error !== undefined ? body.error : body, this.clean);
      } catch {
        // keep the raw snippet
      }
      this.recordError('server_error_event', `server error event: ${message}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      // A capture without blank lines between events arrives as one multi-line data field.
      if (data.includes('\n') && this.splitLines(data)) return;
      if (this.flushing) return; // the stream was cut inside this line: the caller sees truncation
      this.recordError('malformed', `data is not JSON: ${snippet(this.clean(data))}`);
      return;
    }
    this.onParsed(parsed);
  }

  /** A parsed data value: chat's chunk as it came, another API's event in chat's shape first. */
  private onParsed(value: unknown): void {
    if (this.apiChunks.api === 'chat') {
      this.onChunk(value);
      return;
    }
    const { chunk, done } = this.apiChunks.map(value);
    this.onChunk(chunk);
    // a responses stream ends with its last event, not [DONE]
    if (done) {
      this.state.done = true;
      this.pushDone = true;
    }
  }

  /** Re-reads a multi-line data field as one event per line; false when a line is not JSON. */
  private splitLines(data: string): boolean {
    const parsed: unknown[] = [];
    for (const line of data.split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '') continue;
      if (trimmed === '[DONE]') {
        parsed.push(DONE);
        continue;
      }
      try {
        parsed.push(JSON.parse(trimmed));
      } catch {
        return false;
      }
    }
    for (const value of parsed) {
      if (this.state.done) break;
      if (value === DONE) {
        this.state.done = true;
        this.pushDone = true;
      } else {
        this.onParsed(value);
      }
    }
    return true;
  }

  private onChunk(chunk: unknown): void {
    if (!isObject(chunk)) {
      if (this.flushing) return; // e.g. "data: 4" cut from "data: 42…" at EOF
      this.recordError('malformed', `data is not a JSON object: ${snippet(this.clean(JSON.stringify(chunk) ?? ''))}`);
      return;
    }
    const s = this.state;
    s.chunks++;
    readIdentity(chunk, s);
    if (chunk.error !== undefined && chunk.error !== null) {
      this.recordError('server_error_event', `server error event: ${errorMessageOf(chunk.error, this.clean)}`);
    } else if (chunk.object === 'error') {
      // vLLM/SGLang's ErrorResponse sent bare, without the {"error": ...} wrapper.
      this.recordError('server_error_event', `server error event: ${errorMessageOf(chunk, this.clean)}`);
    }

    const choices = chunk.choices;
    if (Array.isArray(choices) && choices.length > 0) {
      // n = 1 is what a probe asks for; take the first choice (index 0 when present).
      const choice = choices[0];
      if (isObject(choice)) this.onChoice(choice);
    }

    // Groq reports usage in x_groq.usage; llama.cpp's timings.predicted_n is the fallback.
    const usage = tokenCount(chunk.usage) ?? (isObject(chunk.x_groq) ? tokenCount(chunk.x_groq.usage) : null);
    if (usage !== null) {
      if (usage.completion !== null) this.usageCompletion = usage.completion;
      if (usage.prompt !== null) s.promptTokens = usage.prompt;
    } else if (this.usageCompletion === null && isObject(chunk.timings)) {
      const n = countOf(chunk.timings.predicted_n);
      if (n !== null) this.usageCompletion = n;
      const p = countOf(chunk.timings.prompt_n);
      if (s.promptTokens === null && p !== null) s.promptTokens = p;
    }
  }

  private onChoice(choice: Json): void {
    const s = this.state;
    let content = '';
    let reasoning = '';
    let unknownParts = 0;
    if (isObject(choice.delta)) {
      ({ content, reasoning, unknownParts } = textOf(choice.delta));
    } else if (isObject(choice.message)) {
      ({ content, reasoning, unknownParts } = textOf(choice.message));
    } else if (typeof choice.text === 'string') {
      content = choice.text; // legacy /completions chunks
    }
    s.unknownContentParts += unknownParts;
    if (choice.logprobs != null) for (const v of chunkLogprobs(choice)) this.trace.push(v);
    if (content !== '' || reasoning !== '') {
      const now = this.nowMs;
      if (s.lastTokenAtMs === null) {
        s.firstTokenAtMs = now;
      } else {
        const gap = now - s.lastTokenAtMs;
        if (s.gapsMs.length < MAX_GAPS_KEPT) s.gapsMs.push(gap);
        if (gap > s.maxGapMs) s.maxGapMs = gap;
      }
      s.lastTokenAtMs = now;
      s.tokenDeltas++;
      this.pushTokenChunks++;
      if (content !== '') {
        if (s.firstContentAtMs === null) s.firstContentAtMs = now;
        this.contentParts.append(content);
        this.contentDelta += content;
        this.onContent?.(content);
      }
      if (reasoning !== '') {
        this.reasoningParts.append(reasoning);
        this.reasoningDelta += reasoning;
      }
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
      s.finishReason = choice.finish_reason;
    }
    const stop = choice.stop_reason;
    if (typeof stop === 'string' || typeof stop === 'number') s.stopReason = stop;
  }
}

const PARTS_PER_PIECE = 1024;

/**
 * Append-only text as a list of pieces, read as one flat string. Every PARTS_PER_PIECE deltas
 * are joined into one piece, so the list stays short and the final join copies the text once more.
 */
class TextParts {
  private pieces: string[] = [];
  private merged = 0;

  append(delta: string): void {
    this.pieces.push(delta);
    if (this.pieces.length - this.merged >= PARTS_PER_PIECE) {
      const piece = this.pieces.splice(this.merged).join('');
      this.pieces.push(piece);
      this.merged = this.pieces.length;
    }
  }

  /** The text so far as one flat string (join allocates a flat string; += would make a rope). */
  text(): string {
    if (this.pieces.length > 1) {
      this.pieces = [this.pieces.join('')];
      this.merged = 1;
    }
    return this.pieces[0] ?? '';
  }
}

const DONE = Symbol('done');

/** Identity strings are short; a longer one is cut, so a chunk cannot make the fingerprint large. */
const IDENTITY_MAX_CHARS = 200;

/** What a chunk or body says served it: its `model` and `system_fingerprint` (empty ones say nothing: Azure's first chunk). */
function readIdentity(chunk: Json, into: Pick<StreamAccumulation, 'servedModel' | 'systemFingerprint'>): void {
  if (typeof chunk.model === 'string' && chunk.model !== '') into.servedModel = chunk.model.slice(0, IDENTITY_MAX_CHARS);
  const fp = chunk.system_fingerprint;
  if (typeof fp === 'string' && fp !== '') into.systemFingerprint = fp.slice(0, IDENTITY_MAX_CHARS);
}

/** Accumulates a complete captured SSE body (e.g. `curl -N` output saved to a file). */
export function accumulateSseText(text: string, api: StreamApi = 'chat'): StreamAccumulation {
  const acc = new StreamAccumulator(undefined, undefined, api);
  acc.pushText(text, 0);
  acc.end(0);
  return acc.result();
}

/** Accumulates a complete SSE body given as bytes. */
export function accumulateSseBytes(bytes: Uint8Array, api: StreamApi = 'chat'): StreamAccumulation {
  const acc = new StreamAccumulator(undefined, undefined, api);
  acc.push(bytes, 0);
  acc.end(0);
  return acc.result();
}

/**
 * The result shape for a non-streamed chat completion (a server that ignored stream: true).
 * Without usage, the whole message counts as one delta.
 */
export function accumulateChatCompletion(body: unknown, clean: (text: string) => string = (t) => t): StreamAccumulation {
  const acc = new StreamAccumulator();
  const result = acc.result();
  if (!isObject(body)) {
    result.error = { type: 'malformed', message: 'completion body is not a JSON object' };
    return result;
  }
  if (body.error !== undefined && body.error !== null) {
    result.error = { type: 'server_error_event', message: `server error: ${errorMessageOf(body.error, clean)}` };
  }
  const choices = body.choices;
  const choice = Array.isArray(choices) && isObject(choices[0]) ? choices[0] : null;
  if (choice !== null) {
    const message = isObject(choice.message) ? choice.message : isObject(choice.delta) ? choice.delta : null;
    const { content, reasoning, unknownParts } =
      message !== null ? textOf(message) : { content: typeof choice.text === 'string' ? choice.text : '', reasoning: '', unknownParts: 0 };
    result.content = content;
    result.reasoning = reasoning;
    result.unknownContentParts = unknownParts;
    const trace = new LogprobTrace();
    for (const v of chunkLogprobs(choice)) trace.push(v);
    result.logprobs = trace.summary();
    result.tokenDeltas = content !== '' || reasoning !== '' ? 1 : 0;
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') result.finishReason = choice.finish_reason;
    const stop = choice.stop_reason;
    if (typeof stop === 'string' || typeof stop === 'number') result.stopReason = stop;
  } else if (result.error === null) {
    result.error = { type: 'malformed', message: 'completion body has no choices' };
  }
  result.chunks = 1;
  readIdentity(body, result);
  result.endedCleanly = result.finishReason !== null;
  const usage = tokenCount(body.usage) ?? (isObject(body.x_groq) ? tokenCount(body.x_groq.usage) : null);
  if (usage?.prompt != null) result.promptTokens = usage.prompt;
  if (usage?.completion != null && !(usage.completion === 0 && result.tokenDeltas > 0)) {
    result.outputTokens = usage.completion;
    result.outputTokensSource = 'usage';
  } else {
    result.outputTokens = result.tokenDeltas;
    result.outputTokensSource = 'deltas';
  }
  return result;
}

/** Parses a non-streamed body's text (of the given API); non-JSON text becomes a `malformed` error value. */
export function accumulateChatCompletionText(
  text: string,
  clean: (text: string) => string = (t) => t,
  api: StreamApi = 'chat',
): StreamAccumulation {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const result = new StreamAccumulator().result();
    result.error = { type: 'malformed', message: `body is not JSON: ${snippet(clean(text))}` };
    return result;
  }
  return accumulateChatCompletion(api === 'chat' ? body : chatCompletionOf(api, body), clean);
}
