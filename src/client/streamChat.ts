import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import type { StreamDelta } from '../core/streamAccumulator.js';
import type { ChatRequest, StreamErrorType, StreamProgress, StreamResult, StreamTimeouts } from './streamTypes.js';
import { DEFAULT_MAX_BYTES } from './streamTypes.js';
import { ReadPacer } from './readPacer.js';
import { OutputRate, slowWindowMs } from './outputRate.js';
import { identityHeaders } from './identityHeaders.js';
import { redactText, secretsOf } from './redactSecrets.js';
import { BodyDecoder } from './bodyDecoder.js';
import { ResponseBody } from './responseBody.js';
import { ReadBacklog } from './readBacklog.js';
import { CallTimers } from './callTimers.js';
import { MAX_TIMER_MS, chatDispatch, defaultDispatcher, timerMs } from './chatDispatch.js';
import { abortError, connectionError, errorText } from './callErrors.js';
import { streamResult } from './streamResult.js';

// The layers live in their own modules; these stay importable from here.
export { redactBytes, secretsOf } from './redactSecrets.js';
export { READ_SLICE_BYTES } from './readBacklog.js';
export { NON_SSE_PROGRESS_BYTES } from './responseBody.js';
export { closeStreamDispatchers } from './chatDispatch.js';

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

/** Milliseconds of stream reading per turn of the event loop, all streams together. */
export const READ_BUDGET_MS = 10;
const defaultPacer = new ReadPacer(READ_BUDGET_MS);
/** After [DONE], how long to wait for the server to end the response before closing it ourselves. */
const DONE_GRACE_MS = 1000;

/**
 * POSTs a streaming chat completion and accumulates it. Never throws: every failure is
 * `result.error` with a stable type, and whatever arrived before it is kept.
 */
export function streamChat(request: ChatRequest, options: StreamChatOptions): Promise<StreamResult> {
  return new Promise<StreamResult>((resolve) => {
    new StreamCall(request, options, resolve).start();
  });
}

type Phase = 'connecting' | 'waiting' | 'body' | 'settled';

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

/**
 * One call: its timers, pacing, abort, progress reports and errors. The body is read by its
 * layers: decoded (bodyDecoder.ts), framed (sseEvents.ts) and accumulated (responseBody.ts).
 */
class StreamCall {
  private readonly now: () => number;
  private readonly startMs: number;
  private readonly secrets: string[];
  private readonly timers = new CallTimers<'connect' | 'idle' | 'total' | 'slow'>();
  /** The minimum output rate (outputRate.ts): its window timer runs from the first output on. */
  private readonly slowMs: number | null;
  private readonly rate: OutputRate;
  private readonly decoder: BodyDecoder;
  private readonly body: ResponseBody;
  private readonly backlog: ReadBacklog;
  private phase: Phase = 'connecting';
  private controller: Dispatcher.DispatchController | null = null;
  private httpStatus: number | null = null;
  private contentType = '';
  private location = '';
  /** The response's server and version headers. */
  private identity: Record<string, string> = {};
  private pendingError: { type: StreamErrorType; message: string } | null = null;
  private readonly onAbort = (): void => this.failWith(abortError(this.options.signal?.reason, false));

  constructor(
    private readonly request: ChatRequest,
    private readonly options: StreamChatOptions,
    private readonly resolve: (result: StreamResult) => void,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.startMs = this.now();
    // Credentials must never show up in an error message, even if a server echoes them back.
    this.secrets = secretsOf(request.headers);
    this.slowMs = slowWindowMs(options.timeouts.slowSeconds);
    this.rate = new OutputRate((this.slowMs ?? 0) / 1000);
    this.decoder = new BodyDecoder({
      bytes: (chunk) => {
        if (this.controller !== null && !this.settled()) this.backlog.add(this.controller, chunk, this.now());
      },
      // what the decoder gave last may still wait in the backlog
      end: () => this.backlog.whenRead(() => this.finish()),
      error: (message) => this.fail('malformed', message),
    });
    this.body = new ResponseBody(this.decoder, options.maxBytes ?? DEFAULT_MAX_BYTES, (t) => this.redact(t), options.onRaw);
    this.backlog = new ReadBacklog(options.pacer ?? defaultPacer, {
      read: (chunk, atMs) => this.read(chunk, atMs),
      settled: () => this.settled(),
      readFailed: (message) => this.fail('truncated', message),
    });
  }

  start(): void {
    const { signal, timeouts: t } = this.options;
    if (signal?.aborted) return this.failWith(abortError(signal.reason, true));
    let dispatch: Dispatcher.DispatchOptions;
    try {
      dispatch = chatDispatch(this.request);
    } catch (err) {
      return this.fail('connect', (err as Error).message);
    }
    const connectMs = timerMs(t.connectSeconds);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timers.once('connect', connectMs, () => this.fail('timeout_connect', `no connection within ${t.connectSeconds} s`));
    this.timers.once('total', timerMs(t.totalSeconds), () => this.fail('timeout_total', `stream not finished within ${t.totalSeconds} s`));
    try {
      (this.options.dispatcher ?? defaultDispatcher(connectMs ?? MAX_TIMER_MS)).dispatch(dispatch, {
        onRequestStart: (controller) => this.onRequestStart(controller),
        onResponseStart: (controller, status, headers) => this.onResponseStart(controller, status, headers),
        onResponseData: (_controller, chunk) => (this.settled() ? undefined : this.decoder.write(chunk)),
        // A decoder may still hold bytes: the sample ends when it has given them all.
        onResponseEnd: () => this.backlog.whenRead(() => (this.settled() ? undefined : this.decoder.end())),
        onResponseError: (_controller, err) => this.backlog.whenRead(() => this.onError(err)),
      });
    } catch (err) {
      this.fail('connect', `request could not be sent: ${errorText(err)}`);
    }
  }

  private onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.settled()) return controller.abort(new Error('settled'));
    this.controller = controller;
    this.phase = 'waiting';
    this.timers.clear('connect');
    this.timers.once('idle', timerMs(this.options.timeouts.idleSeconds), () => this.onIdle());
  }

  private onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (this.settled()) return controller.abort(new Error('settled'));
    this.controller = controller;
    this.phase = 'body';
    this.timers.refresh('idle');
    this.httpStatus = status;
    this.contentType = headerValue(headers, 'content-type').toLowerCase();
    this.identity = identityHeaders(headers);
    if (status >= 300 && status < 400) this.location = headerValue(headers, 'location');
    try {
      this.decoder.expect(headerValue(headers, 'content-encoding').toLowerCase().trim());
    } catch (err) {
      return this.fail('malformed', (err as Error).message);
    }
    this.body.start(status, this.contentType);
  }

  /** Reads one piece of the body, in order, and acts on what it held. */
  private read(chunk: Buffer, atMs: number): void {
    const step = this.body.read(chunk, atMs);
    if (step.progressed) this.timers.refresh('idle');
    const delta = step.delta;
    if (delta !== null) {
      this.output(delta.contentDelta + delta.reasoningDelta);
      // [DONE] means complete: a server (or proxy) that then holds the response open is not waited for.
      if (delta.done) {
        this.timers.clear('slow');
        this.timers.once('idle', DONE_GRACE_MS, () => this.finish());
      }
      if (delta.tokenChunks > 0 && !this.report(delta)) return;
    }
    if (step.end === 'finish') this.finish();
    else if (step.end !== null) this.failWith(step.end);
  }

  /** Delivers what arrived first, so an incremental analyzer sees every delta the result holds; false when that settled the call. */
  private report(delta: StreamDelta): boolean {
    const { onProgress } = this.options;
    if (onProgress === undefined) return true;
    const { contentDelta, reasoningDelta, tokens } = delta;
    const elapsedSeconds = (this.now() - this.startMs) / 1000;
    try {
      onProgress({ contentDelta, reasoningDelta, tokens, chunks: this.body.acc.chunkCount(), bytes: this.body.rawBytes, elapsedSeconds });
    } catch (err) {
      this.fail('aborted', `onProgress threw: ${errorText(err)}`);
      return false;
    }
    return !this.settled(); // the caller may abort from inside onProgress
  }

  private onIdle(): void {
    // After [DONE] the stream is complete; a server that keeps the socket open is not at fault.
    if (this.body.acc.isDone()) return this.finish();
    // Received but not read yet (the pacer shares the loop between streams): not the server's stall.
    if (this.backlog.pending()) return this.timers.refresh('idle');
    const idle = this.options.timeouts.idleSeconds;
    this.fail('timeout_idle', this.phase === 'waiting' ? `no response headers for ${idle} s` : this.body.idleMessage(idle));
  }

  /** Output text of an event stream arrived: the first opens the windows of the minimum output rate. */
  private output(text: string): void {
    if (this.slowMs === null || text === '') return;
    if (this.rate.output(Buffer.byteLength(text, 'utf8')) && !this.body.acc.isDone()) {
      this.timers.every('slow', this.slowMs, () => {
        // Received but not read yet (the pacer shares the loop between streams): judged with the next window.
        if (this.backlog.pending() || this.body.acc.isDone()) return;
        const tooSlow = this.rate.windowEnded();
        if (tooSlow !== null) this.fail('too_slow', tooSlow);
      });
    }
  }

  private onError(err: Error): void {
    if (this.phase === 'settled') return;
    const error = connectionError(err, this.phase, this.body.acc.isDone());
    if (error === null) this.finish();
    else this.failWith(error);
  }

  private fail(type: StreamErrorType, message: string): void {
    if (this.settled()) return;
    this.pendingError = { type, message };
    this.finish();
  }

  private failWith(error: { type: StreamErrorType; message: string }): void {
    this.fail(error.type, error.message);
  }

  /** A method, so TypeScript does not narrow phase across callbacks that can settle the call. */
  private settled(): boolean {
    return this.phase === 'settled';
  }

  /** Settles once: stops timers, closes the connection if still open, builds the result. */
  private finish(): void {
    if (this.phase === 'settled') return;
    const hadBody = this.phase === 'body';
    this.phase = 'settled';
    this.timers.clearAll();
    this.backlog.clear();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    // Aborting destroys the socket: that is how vLLM, SGLang and llama.cpp learn to free the sequence.
    this.controller?.abort(new Error('stream settled'));
    this.decoder.destroy();
    const endMs = this.now();
    const { body } = this;
    this.resolve(
      streamResult(body.accumulation(endMs, this.pendingError !== null), {
        ...{ url: this.request.url, startMs: this.startMs, endMs, httpStatus: this.httpStatus, contentType: this.contentType },
        ...{ location: this.location, hadBody, mode: body.mode, bufferedText: () => body.bufferedText(), bytes: body.rawBytes },
        ...{ pendingError: this.pendingError, headers: this.identity, redact: (t: string) => this.redact(t) },
      }),
    );
  }

  private redact(message: string): string {
    return redactText(message, this.secrets);
  }
}
