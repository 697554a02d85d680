import { Agent, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip, type Inflate, type BrotliDecompress } from 'node:zlib';
import { StreamAccumulator, accumulateChatCompletionText, type StreamAccumulation } from '../core/streamAccumulator.js';
import {
  DEFAULT_MAX_BYTES,
  type ChatRequest,
  type StreamErrorType,
  type StreamProgress,
  type StreamResult,
  type StreamTimeouts,
} from './streamTypes.js';
import { ReadPacer, type PacedReader } from './readPacer.js';
import { OutputRate, slowWindowMs } from './outputRate.js';
import { isRunDeadline } from './runDeadline.js';
import { identityHeaders } from './identityHeaders.js';
import { redactText, secretsOf } from './redactSecrets.js';

// The redaction lives in redactSecrets.ts; these stay importable from here.
export { redactBytes, secretsOf } from './redactSecrets.js';

/**
 * Defaults sized for 5k–10k-token generations:
 * - connect 10 s: a TCP + TLS handshake that takes longer means an unreachable or drowning
 *   endpoint, not a slow model (undici's own default is also 10 s).
 * - idle 60 s: healthy token gaps are tens of milliseconds; 60 s covers queueing plus prefill
 *   of a probe-sized prompt on a busy server, and is where common proxies give up anyway
 *   (nginx proxy_read_timeout 60 s, Cloudflare 100 s).
 * - total 1800 s: 10k tokens at a slow 10 tok/s (CPU llama.cpp, a big model on a small GPU)
 *   take ~1000 s; 30 minutes leaves room for reasoning and queueing without letting a
 *   never-ending stream pin a probe slot forever.
 */
export const DEFAULT_TIMEOUTS: Readonly<StreamTimeouts> = Object.freeze({
  connectSeconds: 10,
  idleSeconds: 60,
  totalSeconds: 1800,
});

export interface StreamChatOptions {
  /** Seconds; 0, negative or non-finite disables that timeout. */
  timeouts: StreamTimeouts;
  signal?: AbortSignal;
  /** undici dispatcher (tests, proxies). Its own connect timeout also applies. */
  dispatcher?: Dispatcher;
  /** Byte cap on the response body; default DEFAULT_MAX_BYTES. */
  maxBytes?: number;
  /** Monotonic clock in milliseconds; default performance.now(). Used for figures, not for timers. */
  now?: () => number;
  /** Called after each network read that added output (never after the result is settled). */
  onProgress?: (progress: StreamProgress) => void;
  /** Paces reads across streams; default: one pacer shared by every call of the process. */
  pacer?: ReadPacer;
  /**
   * The response body as received (after any decoding), in order, at most maxBytes in all:
   * a raw capture for `probe --save`, which `analyze` can re-judge.
   */
  onRaw?: (bytes: Uint8Array) => void;
}

export type StreamFunction = (request: ChatRequest, options: StreamChatOptions) => Promise<StreamResult>;

/**
 * Bytes of a response read (parsed and analysed) in one go. A network read can carry 64 KiB
 * or more, several hundred tokens of a fast server, and with dozens of streams those reads
 * added up to seconds in which nothing else ran (health checks, timers, cron ticks). Reads
 * are cut into slices and paced (ReadPacer): the loop stays responsive however fast the
 * streams are.
 */
export const READ_SLICE_BYTES = 16 * 1024;
/** Milliseconds of stream reading per turn of the event loop, all streams together. */
export const READ_BUDGET_MS = 10;
const defaultPacer = new ReadPacer(READ_BUDGET_MS);
/** Unread bytes above which the socket is paused (TCP backpressure reaches the server) until they are read. */
const PAUSE_BACKLOG_BYTES = 256 * 1024;

/** Body bytes kept from an error response (for its snippet). */
const ERROR_BODY_BYTES = 4096;
/**
 * What counts as progress for the idle timer once the headers are in: an event that carries
 * output (a content or reasoning token). SSE comments, keep-alives, role-only and usage-only
 * events, and an event sent a byte at a time are not: before, every byte reset the timer, so a
 * stream sending one byte a second (or only `: ping` comments) held its sample slot until the
 * total timeout (1,800 s by default). A body that is not an event stream progresses by this many
 * bytes (an error page, a non-streaming answer).
 */
export const NON_SSE_PROGRESS_BYTES = 1024;
/** After [DONE], how long to wait for the server to end the response before closing it ourselves. */
const DONE_GRACE_MS = 1000;
const SNIPPET_CHARS = 200;

/** undici's (and the OS's) codes for a connect that timed out, and for its own header/body timers. */
const CONNECT_TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const IDLE_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const agents = new Map<number, Agent>();

/** One shared pool per connect timeout, so undici's connect timer agrees with ours. */
function defaultDispatcher(connectMs: number): Agent {
  let agent = agents.get(connectMs);
  if (agent === undefined) {
    agent = new Agent({ connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 });
    agents.set(connectMs, agent);
  }
  return agent;
}

/** setTimeout fires at once for delays over 2^31-1 ms; longer means "no limit" here anyway. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timeout in seconds as timer milliseconds; 0, negative or non-finite disables it (null). */
function timerMs(seconds: number): number | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(seconds * 1000)));
}

/** Closes the pooled connections of the default dispatchers (daemon shutdown, after in-flight samples were aborted). */
export async function closeStreamDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.destroy()));
}

type Phase = 'connecting' | 'waiting' | 'body' | 'settled';
type BodyMode = 'sse' | 'sniff' | 'buffer' | 'error_status';

function statusLabel(status: number): string {
  if (status === 401 || status === 403) return ' (auth)';
  if (status === 429) return ' (rate limited)';
  return '';
}

/**
 * What a redirect answer says: it was not followed (the daemon connects only to the configured
 * baseUrl, so a request can never be steered elsewhere) and where it pointed, without its
 * query string or credentials; a same-origin Location usually means a baseUrl to correct.
 */
function redirectNote(status: number, location: string, requestUrl: string): string {
  if (status < 300 || status >= 400) return '';
  let where = '';
  try {
    const to = new URL(location, requestUrl);
    where = location === '' ? '' : `; Location: ${to.origin}${to.pathname}${to.search ? '?…' : ''}`;
  } catch {
    where = location === '' ? '' : '; Location: (not a URL)';
  }
  return ` (redirect not followed: update the target's baseUrl${where})`;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

function flatSnippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}

function errorCode(err: unknown): string {
  if (typeof err === 'object' && err !== null) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const cause = (err as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== err) return errorCode(cause);
  }
  return '';
}

function errorText(err: unknown): string {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  return code !== '' && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * POSTs a streaming chat completion and accumulates it. Never throws: every failure is
 * `result.error` with a stable type, and whatever arrived before it is kept.
 */
export function streamChat(request: ChatRequest, options: StreamChatOptions): Promise<StreamResult> {
  return new Promise<StreamResult>((resolve) => {
    new StreamCall(request, options, resolve).start();
  });
}

class StreamCall implements PacedReader {
  private readonly now: () => number;
  private readonly startMs: number;
  private readonly maxBytes: number;
  private readonly acc = new StreamAccumulator((text) => this.redact(text));
  private readonly secrets: string[];
  private phase: Phase = 'connecting';
  private mode: BodyMode = 'sse';
  private controller: Dispatcher.DispatchController | null = null;
  private httpStatus: number | null = null;
  private contentType = '';
  /** Set when a server compressed the body although the request asked for identity. */
  private decoder: Gunzip | Inflate | BrotliDecompress | null = null;
  private location = '';
  private rawBytes = 0;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private pendingError: { type: StreamErrorType; message: string } | null = null;
  /** Received, not yet read: each with its arrival time, so token gaps are the network's, not our queue's. */
  private backlog: Array<{ chunk: Buffer; atMs: number }> = [];
  private backlogBytes = 0;
  private readonly pacer: ReadPacer;
  /** The end or error of the response, applied once the backlog is read. */
  private afterBacklog: (() => void) | null = null;
  /** Body bytes read since the last progress (see NON_SSE_PROGRESS_BYTES): what the idle message reports. */
  private bytesSinceProgress = 0;
  /** The response's server and version headers. */
  private identity: Record<string, string> = {};
  private connectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private totalTimer: NodeJS.Timeout | null = null;
  /** The minimum output rate (outputRate.ts): its window timer runs from the first output on. */
  private readonly slowMs: number | null;
  private readonly rate: OutputRate;
  private slowTimer: NodeJS.Timeout | null = null;
  private readonly onAbort = (): void => {
    const reason = this.options.signal?.reason;
    // the run's deadline is the target's error (it held its slot too long), not a shutdown
    if (isRunDeadline(reason)) this.fail('timeout_run', reason.message);
    else this.fail('aborted', `aborted by caller${this.reasonText(reason)}`);
  };

  constructor(
    private readonly request: ChatRequest,
    private readonly options: StreamChatOptions,
    private readonly resolve: (result: StreamResult) => void,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.startMs = this.now();
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.pacer = options.pacer ?? defaultPacer;
    // Credentials must never show up in an error message, even if a server echoes them back.
    this.secrets = secretsOf(request.headers);
    this.slowMs = slowWindowMs(options.timeouts.slowSeconds);
    this.rate = new OutputRate((this.slowMs ?? 0) / 1000);
  }

  start(): void {
    const { signal } = this.options;
    if (signal?.aborted) {
      if (isRunDeadline(signal.reason)) this.fail('timeout_run', `${signal.reason.message} before the request`);
      else this.fail('aborted', `aborted by caller before the request${this.reasonText(signal.reason)}`);
      return;
    }
    let url: URL;
    let body: string;
    try {
      url = new URL(this.request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
      body = JSON.stringify(this.request.body);
    } catch (err) {
      // The URL may carry a key in its query string, so it is not repeated here.
      this.fail('connect', `invalid request: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    const t = this.options.timeouts;
    const connectMs = timerMs(t.connectSeconds);
    const totalMs = timerMs(t.totalSeconds);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (connectMs !== null) {
      this.connectTimer = setTimeout(() => this.fail('timeout_connect', `no connection within ${t.connectSeconds} s`), connectMs);
    }
    if (totalMs !== null) {
      this.totalTimer = setTimeout(() => this.fail('timeout_total', `stream not finished within ${t.totalSeconds} s`), totalMs);
    }
    const dispatcher = this.options.dispatcher ?? defaultDispatcher(connectMs ?? MAX_TIMER_MS);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.request.headers)) headers[k.toLowerCase()] = v;
    // The daemon's own headers come last, so no configured header can replace them (the
    // config validator refuses them too). undici's dispatch does not decompress: ask for the
    // raw stream; a server that compresses anyway is decoded below.
    headers['content-type'] = 'application/json';
    headers['accept'] = 'text/event-stream';
    headers['accept-encoding'] = 'identity';
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          body,
          // Our own timers own these phases; a fresh connection per sample (reset) avoids
          // writing a long probe onto a keep-alive socket the server is about to close.
          headersTimeout: 0,
          bodyTimeout: 0,
          reset: true,
        },
        {
          onRequestStart: (controller) => this.onRequestStart(controller),
          onResponseStart: (controller, status, resHeaders) => this.onResponseStart(controller, status, resHeaders),
          onResponseData: (controller, chunk) => this.onData(controller, chunk),
          onResponseEnd: () => this.whenRead(() => this.onEnd()),
          onResponseError: (_controller, err) => this.whenRead(() => this.onError(err)),
        },
      );
    } catch (err) {
      this.fail('connect', `request could not be sent: ${errorText(err)}`);
    }
  }

  private reasonText(reason: unknown): string {
    if (reason === undefined) return '';
    if (reason instanceof Error && reason.name === 'AbortError') return '';
    const text = reason instanceof Error ? reason.message : String(reason);
    return text === '' ? '' : `: ${text}`;
  }

  private onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.phase === 'settled') {
      controller.abort(new Error('settled'));
      return;
    }
    this.controller = controller;
    this.phase = 'waiting';
    this.clearConnectTimer();
    const idleMs = timerMs(this.options.timeouts.idleSeconds);
    if (idleMs !== null) this.idleTimer = setTimeout(() => this.onIdle(), idleMs);
  }

  /** [DONE] means complete: a server (or proxy) that then holds the response open is not waited for. */
  private afterDone(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.stopSlowTimer();
    this.idleTimer = setTimeout(() => this.finish(null), DONE_GRACE_MS);
  }

  private onIdle(): void {
    // After [DONE] the stream is complete; a server that keeps the socket open is not at fault.
    if (this.acc.isDone()) {
      this.finish(null);
      return;
    }
    // Received but not read yet (the pacer shares the loop between streams): not the server's stall.
    if (this.backlog.length > 0) {
      this.idleTimer?.refresh();
      return;
    }
    const idle = this.options.timeouts.idleSeconds;
    if (this.phase === 'waiting') {
      this.fail('timeout_idle', `no response headers for ${idle} s`);
      return;
    }
    const what = this.mode === 'sse' ? 'no output token' : `fewer than ${NON_SSE_PROGRESS_BYTES} bytes of body`;
    const meanwhile =
      this.bytesSinceProgress > 0
        ? ` (${this.bytesSinceProgress} bytes came meanwhile: comments, keep-alives or events sent a byte at a time)`
        : ' (no data)';
    this.fail('timeout_idle', `${what} for ${idle} s${meanwhile}`);
  }

  /** Output arrived: the idle timer starts again. */
  private progressed(): void {
    this.bytesSinceProgress = 0;
    this.idleTimer?.refresh();
  }

  /** Output text of an event stream arrived: the first opens the windows of the minimum output rate. */
  private output(text: string): void {
    if (this.slowMs === null || text === '') return;
    if (this.rate.output(Buffer.byteLength(text, 'utf8')) && !this.acc.isDone()) {
      this.slowTimer = setInterval(() => this.onSlowWindow(), this.slowMs);
    }
  }

  private onSlowWindow(): void {
    // Received but not read yet (the pacer shares the loop between streams): judged with the next window.
    if (this.backlog.length > 0 || this.acc.isDone()) return;
    const tooSlow = this.rate.windowEnded();
    if (tooSlow !== null) this.fail('too_slow', tooSlow);
  }

  private stopSlowTimer(): void {
    if (this.slowTimer !== null) clearInterval(this.slowTimer);
    this.slowTimer = null;
  }

  private onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (this.phase === 'settled') {
      controller.abort(new Error('settled'));
      return;
    }
    this.controller = controller;
    this.phase = 'body';
    this.idleTimer?.refresh();
    this.httpStatus = status;
    this.contentType = headerValue(headers, 'content-type').toLowerCase();
    this.identity = identityHeaders(headers);
    if (status >= 300 && status < 400) this.location = headerValue(headers, 'location');
    const encoding = headerValue(headers, 'content-encoding').toLowerCase().trim();
    if (encoding !== '' && encoding !== 'identity' && !this.startDecoder(encoding)) return;
    if (status < 200 || status >= 300) {
      this.mode = 'error_status';
    } else if (this.contentType.includes('text/event-stream')) {
      this.mode = 'sse';
    } else {
      // Some proxies mislabel SSE; decide on the first bytes.
      this.mode = 'sniff';
    }
  }

  /**
   * A body compressed against `Accept-Encoding: identity` (some gateways do it) is decoded as
   * it arrives rather than reported as a cut stream; an encoding zlib does not know is an error
   * that names it. Returns false when the sample has ended.
   */
  private startDecoder(encoding: string): boolean {
    const make =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? createGunzip
        : encoding === 'deflate'
          ? createInflate
          : encoding === 'br'
            ? createBrotliDecompress
            : null;
    if (make === null) {
      this.fail(
        'malformed',
        `the response body is encoded as "${encoding.slice(0, 40)}", which was not asked for (Accept-Encoding: identity) and cannot be decoded`,
      );
      return false;
    }
    const decoder = make();
    decoder.on('data', (chunk: Buffer) => {
      if (this.controller) this.paced(this.controller, chunk);
    });
    decoder.on('error', (err) =>
      this.fail('malformed', `the response body is ${encoding}-encoded (not asked for) and could not be decoded: ${errorText(err)}`),
    );
    decoder.on('end', () => this.onDecodedEnd());
    this.decoder = decoder;
    return true;
  }

  private onData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.phase === 'settled') return;
    if (this.decoder) {
      this.decoder.write(chunk);
      return;
    }
    this.paced(controller, chunk);
  }

  /** The body's bytes as sent (after any decoding): read now while the pacer's budget lasts, else queued. */
  private paced(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.phase === 'settled') return;
    const atMs = this.now();
    if (this.backlog.length === 0 && chunk.byteLength <= READ_SLICE_BYTES && this.pacer.hasBudget()) {
      this.pacer.charge(() => this.read(chunk, atMs));
      return;
    }
    this.backlog.push({ chunk, atMs });
    this.backlogBytes += chunk.byteLength;
    if (this.backlogBytes > PAUSE_BACKLOG_BYTES && !controller.paused) controller.pause();
    this.pacer.enqueue(this);
  }

  /** Runs `then` (the response's end or error) now, or after the backlog is read. */
  private whenRead(then: () => void): void {
    if (this.backlog.length === 0) then();
    else this.afterBacklog = then;
  }

  /** Reads READ_SLICE_BYTES of the backlog (the pacer calls it); true while more is left. */
  readSlice(): boolean {
    let budget = READ_SLICE_BYTES;
    while (budget > 0 && this.backlog.length > 0 && !this.settled()) {
      const head = this.backlog[0]!;
      let part = head.chunk;
      if (part.byteLength > budget) {
        part = head.chunk.subarray(0, budget);
        head.chunk = head.chunk.subarray(budget);
      } else {
        this.backlog.shift();
      }
      this.backlogBytes -= part.byteLength;
      budget -= part.byteLength;
      try {
        this.read(part, head.atMs);
      } catch (err) {
        // read outside undici's callback: a fault here must end this call, not the process
        this.fail('truncated', `stream could not be read: ${errorText(err)}`);
      }
    }
    if (this.settled()) {
      this.backlog = [];
      this.backlogBytes = 0;
      return false;
    }
    if (this.backlog.length > 0) return true;
    // resume() can hand over what undici holds at once, the response's end included: read that first
    if (this.controller?.paused) this.controller.resume();
    if (this.backlog.length > 0 || this.settled()) return this.backlog.length > 0 && !this.settled();
    const then = this.afterBacklog;
    this.afterBacklog = null;
    then?.();
    return false;
  }

  /** Reads one piece of the body, in order. */
  private read(chunk: Buffer, atMs: number): void {
    const { onRaw } = this.options;
    if (onRaw !== undefined && this.rawBytes < this.maxBytes) {
      const room = this.maxBytes - this.rawBytes;
      onRaw(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    }
    this.rawBytes += chunk.byteLength;
    this.bytesSinceProgress += chunk.byteLength;
    if (this.mode === 'sniff') this.sniff(chunk);
    if (this.mode !== 'sse' && this.bytesSinceProgress >= NON_SSE_PROGRESS_BYTES) this.progressed();
    if (this.mode === 'error_status') {
      this.keep(chunk, ERROR_BODY_BYTES);
      if (this.bufferedBytes >= ERROR_BODY_BYTES) this.finish(null);
      return;
    }
    if (this.mode === 'buffer' || this.mode === 'sniff') {
      if (this.bufferedBytes + chunk.byteLength > this.maxBytes) {
        this.keep(chunk, this.maxBytes);
        this.fail('too_large', `non-SSE body over ${this.maxBytes} bytes`);
        return;
      }
      this.keep(chunk, this.maxBytes);
      return;
    }
    // SSE
    let over = false;
    let bytes: Uint8Array = chunk;
    if (this.rawBytes > this.maxBytes) {
      over = true;
      const room = chunk.byteLength - (this.rawBytes - this.maxBytes);
      bytes = chunk.subarray(0, Math.max(0, room));
    }
    const delta = this.acc.push(bytes, atMs);
    if (delta.tokenChunks > 0) this.progressed();
    this.output(delta.contentDelta + delta.reasoningDelta);
    if (delta.done) this.afterDone();
    // Deliver what arrived first, so an incremental analyzer sees every delta the result holds.
    const { onProgress } = this.options;
    if (onProgress !== undefined && delta.tokenChunks > 0) {
      try {
        onProgress({
          contentDelta: delta.contentDelta,
          reasoningDelta: delta.reasoningDelta,
          tokens: delta.tokens,
          chunks: this.acc.chunkCount(),
          bytes: this.rawBytes,
          elapsedSeconds: (this.now() - this.startMs) / 1000,
        });
      } catch (err) {
        this.fail('aborted', `onProgress threw: ${errorText(err)}`);
        return;
      }
      if (this.settled()) return; // the caller aborted from inside onProgress
    }
    if (delta.error?.type === 'server_error_event') {
      // An error event ends an OpenAI-style stream; do not wait for the server to hang up.
      this.finish(null);
      return;
    }
    if (over) this.fail('too_large', `response over ${this.maxBytes} bytes (raise the probe's maxResponseBytes)`);
  }

  private sniff(chunk: Buffer): void {
    let i = 0;
    // Skip a BOM and leading whitespace.
    if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    while (i < chunk.length && (chunk[i] === 0x20 || chunk[i] === 0x0a || chunk[i] === 0x0d || chunk[i] === 0x09)) i++;
    if (i >= chunk.length) return; // still undecided
    const head = chunk.subarray(i, i + 6).toString('latin1');
    const looksSse =
      head.startsWith('data:') || head.startsWith('event:') || head.startsWith(':') || head.startsWith('id:') || head.startsWith('retry:');
    if (looksSse && this.buffered.length === 0) {
      this.mode = 'sse';
    } else if (looksSse) {
      // Leading whitespace arrived in an earlier read; replay it through the SSE path.
      this.mode = 'sse';
      const head2 = Buffer.concat(this.buffered);
      this.buffered = [];
      this.bufferedBytes = 0;
      this.acc.push(head2, this.now());
    } else {
      this.mode = 'buffer';
    }
  }

  private keep(chunk: Buffer, limit: number): void {
    const room = limit - this.bufferedBytes;
    if (room <= 0) return;
    const part = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
    this.buffered.push(part);
    this.bufferedBytes += part.byteLength;
  }

  private onEnd(): void {
    if (this.phase === 'settled') return;
    // A decoder may still hold bytes: the sample ends when it has given them all.
    if (this.decoder) this.decoder.end();
    else this.finish(null);
  }

  private onDecodedEnd(): void {
    // what the decoder gave last may still wait in the backlog
    this.whenRead(() => {
      if (this.phase !== 'settled') this.finish(null);
    });
  }

  private onError(err: Error): void {
    if (this.phase === 'settled') return;
    const code = errorCode(err);
    if (this.phase === 'connecting') {
      if (CONNECT_TIMEOUT_CODES.has(code)) {
        this.fail('timeout_connect', `connect timed out: ${errorText(err)}`);
      } else {
        this.fail('connect', `connect failed: ${errorText(err)}`);
      }
      return;
    }
    if (IDLE_TIMEOUT_CODES.has(code)) {
      this.fail('timeout_idle', `dispatcher timeout: ${errorText(err)}`);
      return;
    }
    if (this.acc.isDone()) {
      this.finish(null);
      return;
    }
    const where = this.phase === 'waiting' ? 'before response headers' : 'mid-stream';
    this.fail('truncated', `connection lost ${where}: ${errorText(err)}`);
  }

  private fail(type: StreamErrorType, message: string): void {
    if (this.phase === 'settled') return;
    this.pendingError = { type, message };
    this.finish(type);
  }

  /** A method, so TypeScript does not narrow phase across callbacks that can settle the call. */
  private settled(): boolean {
    return this.phase === 'settled';
  }

  private clearConnectTimer(): void {
    if (this.connectTimer !== null) {
      clearTimeout(this.connectTimer);
      this.connectTimer = null;
    }
  }

  /** Settles once: stops timers, closes the connection if still open, builds the result. */
  private finish(_cause: StreamErrorType | null): void {
    if (this.phase === 'settled') return;
    const phaseAtEnd = this.phase;
    this.phase = 'settled';
    this.clearConnectTimer();
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    if (this.totalTimer !== null) clearTimeout(this.totalTimer);
    this.stopSlowTimer();
    this.afterBacklog = null;
    this.backlog = [];
    this.backlogBytes = 0;
    this.options.signal?.removeEventListener('abort', this.onAbort);
    // Aborting destroys the socket: that is how vLLM, SGLang and llama.cpp learn to free the sequence.
    this.controller?.abort(new Error('stream settled'));
    this.decoder?.destroy();
    const endMs = this.now();
    const accumulation = this.bodyAccumulation(endMs);
    const error = this.resultError(accumulation, phaseAtEnd);
    this.resolve(this.toResult(accumulation, endMs, error));
  }

  private bodyAccumulation(endMs: number): StreamAccumulation {
    // A non-SSE body cut short by an error cannot be parsed; report the error, not the JSON.
    if (this.mode === 'sse' || this.mode === 'error_status' || this.bufferedBytes === 0 || this.pendingError !== null) {
      this.acc.end(endMs);
      return this.acc.result();
    }
    // buffer / sniff: a whole non-SSE body
    const text = Buffer.concat(this.buffered).toString('utf8');
    const trimmed = text.trimStart();
    if (trimmed.startsWith('{')) {
      const completion = accumulateChatCompletionText(text, (t) => this.redact(t));
      completion.bytes = this.rawBytes;
      if (completion.firstTokenAtMs === null && (completion.content !== '' || completion.reasoning !== '')) {
        completion.firstTokenAtMs = endMs;
        if (completion.content !== '') completion.firstContentAtMs = endMs;
      }
      return completion;
    }
    this.acc.end(endMs);
    return this.acc.result();
  }

  private resultError(acc: StreamAccumulation, phaseAtEnd: Phase): { type: StreamErrorType; message: string } | null {
    let error: { type: StreamErrorType; message: string } | null = null;
    if (this.mode === 'error_status' && this.httpStatus !== null) {
      // Redact before cutting: a key cut in half by the snippet would no longer match.
      const body = flatSnippet(this.redact(Buffer.concat(this.buffered).toString('utf8')));
      error = {
        type: 'http_status',
        message: `HTTP ${this.httpStatus}${statusLabel(this.httpStatus)}${redirectNote(this.httpStatus, this.location, this.request.url)}${body !== '' ? `: ${body}` : ''}`,
      };
    } else if (acc.error !== null) {
      // The first bad event in the body is the root cause of anything after it.
      error = { ...acc.error };
    } else if (this.pendingError !== null) {
      error = this.pendingError;
    } else if (this.mode === 'buffer' || this.mode === 'sniff') {
      const ct = this.contentType === '' ? 'no content-type' : this.contentType;
      if (acc.chunks > 0 && (acc.content !== '' || acc.reasoning !== '' || acc.finishReason !== null)) {
        error = {
          type: 'not_streaming',
          message: `server answered ${ct} instead of text/event-stream (stream ignored); the completion body was analysed`,
        };
      } else {
        const body = flatSnippet(this.redact(Buffer.concat(this.buffered).toString('utf8')));
        error = { type: 'not_streaming', message: `server answered ${ct} instead of text/event-stream${body !== '' ? `: ${body}` : ''}` };
      }
    } else if (!acc.endedCleanly) {
      error = {
        type: 'truncated',
        message: phaseAtEnd === 'body' ? 'stream ended before a finish_reason or [DONE]' : 'no response',
      };
    }
    if (error !== null) error.message = this.redact(error.message);
    return error;
  }

  private redact(message: string): string {
    return redactText(message, this.secrets);
  }

  private toResult(acc: StreamAccumulation, endMs: number, error: { type: StreamErrorType; message: string } | null): StreamResult {
    const sec = (ms: number | null): number | null => (ms === null ? null : Math.max(0, (ms - this.startMs) / 1000));
    return {
      // A server that echoes the key (in an error, or as "you sent Bearer sk-…" in its answer)
      // must not put it into the sample's text, /runs or a stored run.
      content: this.redact(acc.content),
      reasoning: this.redact(acc.reasoning),
      finishReason: acc.finishReason,
      stopReason: acc.stopReason,
      outputTokens: acc.outputTokens,
      outputTokensSource: acc.outputTokensSource,
      promptTokens: acc.promptTokens,
      unknownContentParts: acc.unknownContentParts,
      logprobs: acc.logprobs,
      ttftSeconds: sec(acc.firstTokenAtMs),
      ttfcSeconds: sec(acc.firstContentAtMs),
      durationSeconds: Math.max(0, (endMs - this.startMs) / 1000),
      chunks: acc.chunks,
      maxGapSeconds: acc.maxGapMs / 1000,
      gapsSeconds: acc.gapsMs.map((g) => g / 1000),
      endedCleanly: error === null && acc.endedCleanly,
      httpStatus: this.httpStatus,
      bytes: this.rawBytes,
      error,
      served: { model: acc.servedModel, systemFingerprint: acc.systemFingerprint, headers: this.identity },
    };
  }
}
