import { NON_SSE_PROGRESS_BYTES } from './streamChat.js';

/**
 * The idle rule of streamChat for a client that reads the body as text (httpExchange): once the
 * headers are in, only output resets the idle timer. In an event stream that is a complete
 * `data:` event whose delta carries text (content, reasoning, a tool call's name or arguments),
 * or the first end of the answer (a finish_reason or `[DONE]`); SSE comments, keep-alives, empty
 * or role-only deltas, usage-only and error objects, `data:` lines that are no JSON object, a
 * repeated end and an event still arriving a byte at a time are not. A body that is not an
 * event stream progresses by NON_SSE_PROGRESS_BYTES. Without this a server sending one byte a
 * second, only `: ping` comments, or `data: x` and usage-only events held the request (and its
 * sample slot) until the total timeout.
 */
export class OutputProgress {
  /** Body bytes read since the last progress: what the idle message reports. */
  bytesSinceProgress = 0;
  /** UTF-8 bytes of output text so far (an event stream only): what the minimum output rate counts. */
  outputBytes = 0;
  private line = '';
  private ended = false;

  constructor(readonly sse: boolean) {}

  /** What the idle timeout's message says was missing. */
  get missing(): string {
    return this.sse ? 'no output token' : `fewer than ${NON_SSE_PROGRESS_BYTES} bytes of body`;
  }

  /** A read of the body (its decoded text and its size in bytes); true when it made progress. */
  push(text: string, bytes: number): boolean {
    this.bytesSinceProgress += bytes;
    let progressed = false;
    if (!this.sse) {
      progressed = this.bytesSinceProgress >= NON_SSE_PROGRESS_BYTES;
    } else {
      const lines = (this.line + text).split(/\r\n|\r|\n/);
      this.line = lines.pop() ?? '';
      // a line that never ends is not an event: bounded, so a 10 MB line costs no more than its reading
      if (this.line.length > 1 << 20) this.line = this.line.slice(-(1 << 20));
      for (const l of lines) {
        if (!l.startsWith('data:')) continue;
        const out = outputOfData(l.slice(5).trim());
        this.outputBytes += out.bytes;
        if (out.bytes > 0 || (out.ends && !this.ended)) progressed = true;
        if (out.ends) this.ended = true;
      }
    }
    if (progressed) this.bytesSinceProgress = 0;
    return progressed;
  }
}

/** What an SSE data payload carries: bytes of output text, and whether it ends the answer (a finish_reason, [DONE]). */
export interface DataOutput {
  bytes: number;
  ends: boolean;
}

const NONE: DataOutput = Object.freeze({ bytes: 0, ends: false });

/** UTF-8 bytes of a text field: a string, or an array of strings and parts with `text`/`thinking`. */
function textBytes(v: unknown): number {
  if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
  if (!Array.isArray(v)) return 0;
  let n = 0;
  for (const part of v) {
    if (typeof part === 'string') n += Buffer.byteLength(part, 'utf8');
    else if (typeof part === 'object' && part !== null) {
      const p = part as Record<string, unknown>;
      n += textBytes(p['text']) + textBytes(p['thinking']) + textBytes(p['content']);
    }
  }
  return n;
}

/** Bytes of the names and arguments of tool calls (an index alone is no output). */
function toolCallBytes(v: unknown): number {
  if (!Array.isArray(v)) return 0;
  let n = 0;
  for (const call of v) {
    if (typeof call !== 'object' || call === null) continue;
    const fn = (call as { function?: unknown }).function;
    if (typeof fn !== 'object' || fn === null) continue;
    const f = fn as { name?: unknown; arguments?: unknown };
    n += textBytes(f.name) + textBytes(f.arguments);
  }
  return n;
}

/** Output bytes of a delta or message object. */
function messageBytes(m: unknown): number {
  if (typeof m !== 'object' || m === null) return 0;
  const d = m as Record<string, unknown>;
  return (
    textBytes(d['content']) +
    textBytes(d['reasoning_content']) +
    textBytes(d['reasoning']) +
    textBytes(d['reasoning_details']) +
    toolCallBytes(d['tool_calls'])
  );
}

/** What one SSE data payload carries (see OutputProgress): usage, errors and anything not a chunk carry nothing. */
export function outputOfData(payload: string): DataOutput {
  if (payload === '[DONE]') return { bytes: 0, ends: true };
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch {
    return NONE;
  }
  if (typeof event !== 'object' || event === null) return NONE;
  const choices = (event as { choices?: unknown }).choices;
  if (!Array.isArray(choices)) return NONE;
  let bytes = 0;
  let ends = false;
  for (const c of choices) {
    if (typeof c !== 'object' || c === null) continue;
    const choice = c as { delta?: unknown; message?: unknown; finish_reason?: unknown };
    bytes += messageBytes(choice.delta) + messageBytes(choice.message);
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') ends = true;
  }
  return { bytes, ends };
}

/** An SSE data payload that carries output text or ends the answer. */
export function dataCarriesOutput(payload: string): boolean {
  const out = outputOfData(payload);
  return out.bytes > 0 || out.ends;
}
