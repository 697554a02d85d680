import { StreamAccumulator, accumulateChatCompletionText, type StreamAccumulation, type StreamDelta } from '../core/streamAccumulator.js';
import type { StreamApi } from '../core/apiChunks.js';
import type { BodyDecoder } from './bodyDecoder.js';
import { SseEvents } from './sseEvents.js';
import type { ResponseHead } from './responseHead.js';
import type { StreamErrorType, StreamProgress } from './streamTypes.js';

/**
 * What counts as progress for the idle timer once the headers are in: an event that carries
 * output (a content or reasoning token). SSE comments, keep-alives, role-only and usage-only
 * events, and an event sent a byte at a time are not: before, every byte reset the timer, so a
 * stream sending one byte a second (or only `: ping` comments) held its sample slot until the
 * total timeout (1,800 s by default). A body that is not an event stream progresses by this many
 * bytes (an error page, a non-streaming answer).
 */
export const NON_SSE_PROGRESS_BYTES = 1024;
/** Body bytes kept from an error response (for its snippet). */
const ERROR_BODY_BYTES = 4096;

export type BodyMode = 'sse' | 'sniff' | 'buffer' | 'error_status';

/** What one read of the body did, for the call to act on in this order. */
export interface BodyRead {
  /** Output (or, off an event stream, enough bytes) arrived: the idle timer starts again. */
  progressed: boolean;
  /** An event stream's delta. */
  delta: StreamDelta | null;
  /** The read ends the call: 'finish' (complete, or an error event), or an error. */
  end: null | 'finish' | { type: StreamErrorType; message: string };
}

/**
 * The response body by what it turns out to be: an event stream (decoded, framed, accumulated),
 * a body to keep whole (a non-streaming answer, or a mislabelled stream until its first bytes
 * tell), or an error status's first bytes for the message.
 */
export class ResponseBody {
  mode: BodyMode = 'sse';
  /** Body bytes read (after any decompression), the capped part included. */
  rawBytes = 0;
  /** Body bytes read since the last progress (see NON_SSE_PROGRESS_BYTES): what the idle message reports. */
  bytesSinceProgress = 0;
  readonly acc: StreamAccumulator;
  private readonly sse = new SseEvents();
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;

  constructor(
    private readonly decoder: BodyDecoder,
    private readonly maxBytes: number,
    private readonly redact: (text: string) => string,
    private readonly onRaw?: (bytes: Uint8Array) => void,
    readonly api: StreamApi = 'chat',
  ) {
    this.acc = new StreamAccumulator(redact, undefined, api);
  }

  /**
   * Decides how to read the body from the response's status and headers; returns why it
   * cannot be read (an encoding that cannot be decoded), else null.
   */
  start(head: ResponseHead): string | null {
    try {
      this.decoder.expect(head.contentEncoding);
    } catch (err) {
      return (err as Error).message;
    }
    if (head.httpStatus < 200 || head.httpStatus >= 300) this.mode = 'error_status';
    else if (head.contentType.includes('text/event-stream')) this.mode = 'sse';
    // Some proxies mislabel SSE; decide on the first bytes.
    else this.mode = 'sniff';
    return null;
  }

  /** What the caller's onProgress is told after a read that carried output. */
  progress(delta: StreamDelta, elapsedSeconds: number): StreamProgress {
    const { contentDelta, reasoningDelta, tokens } = delta;
    return { contentDelta, reasoningDelta, tokens, chunks: this.acc.chunkCount(), bytes: this.rawBytes, elapsedSeconds };
  }

  read(chunk: Buffer, atMs: number): BodyRead {
    const { onRaw } = this;
    if (onRaw !== undefined && this.rawBytes < this.maxBytes) {
      const room = this.maxBytes - this.rawBytes;
      onRaw(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    }
    this.rawBytes += chunk.byteLength;
    this.bytesSinceProgress += chunk.byteLength;
    if (this.mode === 'sniff') this.sniff(chunk, atMs);
    const read: BodyRead = { progressed: false, delta: null, end: null };
    if (this.mode !== 'sse' && this.bytesSinceProgress >= NON_SSE_PROGRESS_BYTES) read.progressed = this.progressed();
    if (this.mode === 'error_status') {
      this.keep(chunk, ERROR_BODY_BYTES);
      if (this.bufferedBytes >= ERROR_BODY_BYTES) read.end = 'finish';
      return read;
    }
    if (this.mode === 'buffer' || this.mode === 'sniff') {
      const over = this.bufferedBytes + chunk.byteLength > this.maxBytes;
      this.keep(chunk, this.maxBytes);
      if (over) read.end = { type: 'too_large', message: `non-SSE body over ${this.maxBytes} bytes` };
      return read;
    }
    let bytes: Uint8Array = chunk;
    const over = this.rawBytes > this.maxBytes;
    if (over) bytes = chunk.subarray(0, Math.max(0, chunk.byteLength - (this.rawBytes - this.maxBytes)));
    const delta = this.events(bytes, atMs);
    read.delta = delta;
    if (delta.tokenChunks > 0) read.progressed = this.progressed();
    // An error event ends an OpenAI-style stream; do not wait for the server to hang up.
    if (delta.error?.type === 'server_error_event') read.end = 'finish';
    else if (over) read.end = { type: 'too_large', message: `response over ${this.maxBytes} bytes (raise the probe's maxResponseBytes)` };
    return read;
  }

  /** Why the idle timer fired, by what came meanwhile. */
  idleMessage(idleSeconds: number): string {
    const what = this.mode === 'sse' ? 'no output token' : `fewer than ${NON_SSE_PROGRESS_BYTES} bytes of body`;
    const meanwhile =
      this.bytesSinceProgress > 0
        ? ` (${this.bytesSinceProgress} bytes came meanwhile: comments, keep-alives or events sent a byte at a time)`
        : ' (no data)';
    return `${what} for ${idleSeconds} s${meanwhile}`;
  }

  /** The kept bytes as text (an error page, a non-streaming answer). */
  bufferedText(): string {
    return Buffer.concat(this.buffered).toString('utf8');
  }

  /** The body read so far as a result, its event stream's tail flushed; `cut` when an error ended it early. */
  accumulation(endMs: number, cut: boolean): StreamAccumulation {
    // A non-SSE body cut short by an error cannot be parsed; report the error, not the JSON.
    if (this.mode !== 'sse' && this.mode !== 'error_status' && this.bufferedBytes > 0 && !cut) {
      const text = this.bufferedText();
      if (text.trimStart().startsWith('{')) {
        const completion = accumulateChatCompletionText(text, this.redact, this.api);
        completion.bytes = this.rawBytes;
        if (completion.firstTokenAtMs === null && (completion.content !== '' || completion.reasoning !== '')) {
          completion.firstTokenAtMs = endMs;
          if (completion.content !== '') completion.firstContentAtMs = endMs;
        }
        return completion;
      }
    }
    this.acc.pushEvents([...this.sse.feed(this.decoder.endText()), ...this.sse.end()], endMs, true);
    this.acc.end(endMs);
    return this.acc.result();
  }

  private events(bytes: Uint8Array, atMs: number): StreamDelta {
    return this.acc.pushEvents(this.sse.feed(this.decoder.text(bytes)), atMs);
  }

  private progressed(): true {
    this.bytesSinceProgress = 0;
    return true;
  }

  private sniff(chunk: Buffer, atMs: number): void {
    let i = 0;
    // Skip a BOM and leading whitespace.
    if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    while (i < chunk.length && (chunk[i] === 0x20 || chunk[i] === 0x0a || chunk[i] === 0x0d || chunk[i] === 0x09)) i++;
    if (i >= chunk.length) return; // still undecided
    const head = chunk.subarray(i, i + 6).toString('latin1');
    const looksSse =
      head.startsWith('data:') || head.startsWith('event:') || head.startsWith(':') || head.startsWith('id:') || head.startsWith('retry:');
    if (!looksSse) {
      this.mode = 'buffer';
      return;
    }
    this.mode = 'sse';
    if (this.buffered.length > 0) {
      // Leading whitespace arrived in an earlier read; replay it through the SSE path.
      const head2 = Buffer.concat(this.buffered);
      this.buffered = [];
      this.bufferedBytes = 0;
      this.events(head2, atMs);
    }
  }

  private keep(chunk: Buffer, limit: number): void {
    const room = limit - this.bufferedBytes;
    if (room <= 0) return;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    this.buffered.push(part);
    this.bufferedBytes += part.byteLength;
  }
}
