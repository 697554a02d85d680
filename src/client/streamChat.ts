import type { Dispatcher } from 'undici';
import type { ChatRequest, StreamErrorType, StreamProgress, StreamResult, StreamTimeouts } from './streamTypes.js';
import { DEFAULT_MAX_BYTES } from './streamTypes.js';
import { ReadPacer } from './readPacer.js';
import { OutputFloor } from './outputFloor.js';
import { responseHead, type ResponseHead } from './responseHead.js';
import { joinSecrets, redactText, secretsOf } from './redactSecrets.js';
import { BodyDecoder } from './bodyDecoder.js';
import { ResponseBody } from './responseBody.js';
import { ReadBacklog } from './readBacklog.js';
import { CallTimers } from './callTimers.js';
import { MAX_TIMER_MS, chatDispatch, defaultDispatcher, timerMs } from './chatDispatch.js';
import { abortError, connectionError, errorText, timeoutError } from './callErrors.js';
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
  /**
   * Credentials redacted besides those the request carries: every other secret of the
   * configuration (configSecrets.ts), since targets behind one origin can echo each other's keys.
   */
  secrets?: readonly string[];
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
type StreamError = { type: StreamErrorType; message: string };

/**
 * One call: its timers, pacing, abort, progress reports and errors. The body is read by its
 * layers: decoded (bodyDecoder.ts), framed (sseEvents.ts) and accumulated (responseBody.ts).
 */
class StreamCall {
  private readonly now: () => number;
  private readonly startMs: number;
  /** Credentials must never show up in an error message or the text, even if a server echoes them back. */
  private readonly redact: (text: string) => string;
  private readonly timers = new CallTimers<'connect' | 'idle' | 'total'>();
  private readonly floor: OutputFloor;
  private readonly decoder: BodyDecoder;
  private readonly body: ResponseBody;
  private readonly backlog: ReadBacklog;
  private phase: Phase = 'connecting';
  private controller: Dispatcher.DispatchController | null = null;
  private head: ResponseHead | null = null;
  private readonly onAbort = (): void => this.settle(abortError(this.options.signal?.reason, false));

  constructor(
    private readonly request: ChatRequest,
    private readonly options: StreamChatOptions,
    private readonly resolve: (result: StreamResult) => void,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.startMs = this.now();
    const secrets = joinSecrets(secretsOf(request.headers), options.secrets);
    this.redact = (text) => redactText(text, secrets);
    // Output received but not read yet (the pacer shares the loop between streams) is judged with the next window.
    const waiting = (): boolean => this.backlog.pending() || this.body.acc.isDone();
    this.floor = new OutputFloor(options.timeouts.slowSeconds, waiting, (message) => this.settle({ type: 'too_slow', message }));
    this.decoder = new BodyDecoder({
      bytes: (chunk) => this.controller !== null && !this.settled() && this.backlog.add(this.controller, chunk, this.now()),
      // what the decoder gave last may still wait in the backlog
      end: () => this.backlog.whenRead(() => this.settle()),
      error: (message) => this.settle({ type: 'malformed', message }),
    });
    this.body = new ResponseBody(this.decoder, options.maxBytes ?? DEFAULT_MAX_BYTES, this.redact, options.onRaw, request.api);
    this.backlog = new ReadBacklog(options.pacer ?? defaultPacer, {
      read: (chunk, atMs) => this.read(chunk, atMs),
      settled: () => this.settled(),
      readFailed: (message) => this.settle({ type: 'truncated', message }),
    });
  }

  start(): void {
    const { signal, timeouts: t } = this.options;
    const dispatch = chatDispatch(this.request);
    if (signal?.aborted || typeof dispatch === 'string') {
      this.settle(signal?.aborted ? abortError(signal.reason, true) : { type: 'connect', message: String(dispatch) });
      return;
    }
    const connectMs = timerMs(t.connectSeconds);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timers.once('connect', connectMs, () => this.settle(timeoutError('connect', t.connectSeconds)));
    this.timers.once('total', timerMs(t.totalSeconds), () => this.settle(timeoutError('total', t.totalSeconds)));
    try {
      (this.options.dispatcher ?? defaultDispatcher(connectMs ?? MAX_TIMER_MS)).dispatch(dispatch, {
        onRequestStart: (controller) => this.onStart(controller, 'waiting'),
        onResponseStart: (controller, status, headers) => this.onStart(controller, 'body') && this.onHead(responseHead(status, headers)),
        onResponseData: (_controller, chunk) => this.settled() || this.decoder.write(chunk),
        // A decoder may still hold bytes: the sample ends when it has given them all.
        onResponseEnd: () => this.backlog.whenRead(() => this.settled() || this.decoder.end()),
        onResponseError: (_controller, err) =>
          this.backlog.whenRead(() => this.settle(connectionError(err, this.phase, this.body.acc.isDone()))),
      });
    } catch (err) {
      this.settle({ type: 'connect', message: `request could not be sent: ${errorText(err)}` });
    }
  }

  /** The request went out (the idle timer starts) or the response came (it starts again); false once settled. */
  private onStart(controller: Dispatcher.DispatchController, phase: 'waiting' | 'body'): boolean {
    if (this.settled()) controller.abort(new Error('settled'));
    if (this.settled()) return false;
    this.controller = controller;
    this.phase = phase;
    this.timers.clear('connect');
    if (phase === 'waiting') this.timers.once('idle', timerMs(this.options.timeouts.idleSeconds), () => this.onIdle());
    else this.timers.refresh('idle');
    return true;
  }

  private onHead(head: ResponseHead): void {
    this.head = head;
    const unreadable = this.body.start(head);
    if (unreadable !== null) this.settle({ type: 'malformed', message: unreadable });
  }

  /** Reads one piece of the body, in order, and acts on what it held. */
  private read(chunk: Buffer, atMs: number): void {
    const step = this.body.read(chunk, atMs);
    if (step.progressed) this.timers.refresh('idle');
    const delta = step.delta;
    if (delta !== null) {
      this.floor.output(delta.contentDelta + delta.reasoningDelta, this.body.acc.isDone());
      // [DONE] means complete: a server (or proxy) that then holds the response open is not waited for.
      if (delta.done) this.timers.once('idle', DONE_GRACE_MS, () => this.settle());
      // Delivered before the end below, so an incremental analyzer sees every delta the result holds.
      if (delta.tokenChunks > 0 && !this.report(this.body.progress(delta, (this.now() - this.startMs) / 1000))) return;
    }
    if (step.end !== null) this.settle(step.end === 'finish' ? null : step.end);
  }

  /** False when the report settled the call (onProgress threw, or the caller aborted from inside it). */
  private report(progress: StreamProgress): boolean {
    try {
      this.options.onProgress?.(progress);
    } catch (err) {
      this.settle({ type: 'aborted', message: `onProgress threw: ${errorText(err)}` });
    }
    return !this.settled();
  }

  private onIdle(): void {
    const idle = this.options.timeouts.idleSeconds;
    // After [DONE] the stream is complete; a server that keeps the socket open is not at fault.
    if (this.body.acc.isDone()) this.settle();
    // Received but not read yet (the pacer shares the loop between streams): not the server's stall.
    else if (this.backlog.pending()) this.timers.refresh('idle');
    else if (this.phase === 'waiting') this.settle(timeoutError('headers', idle));
    else this.settle({ type: 'timeout_idle', message: this.body.idleMessage(idle) });
  }

  /** A method, so TypeScript does not narrow phase across callbacks that can settle the call. */
  private settled(): boolean {
    return this.phase === 'settled';
  }

  /**
   * Settles once, complete (null) or with the error that ended the call early: stops timers,
   * closes the connection if still open, builds the result.
   */
  private settle(error: StreamError | null = null): void {
    if (this.settled()) return;
    const hadBody = this.phase === 'body';
    this.phase = 'settled';
    this.timers.clearAll();
    this.floor.stop();
    this.backlog.clear();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    // Aborting destroys the socket: that is how vLLM, SGLang and llama.cpp learn to free the sequence.
    this.controller?.abort(new Error('stream settled'));
    this.decoder.destroy();
    const end = { url: this.request.url, startMs: this.startMs, endMs: this.now(), head: this.head, hadBody };
    this.resolve(streamResult(this.body, { ...end, pendingError: error, redact: this.redact }));
  }
}
