import { Agent, request, type Dispatcher } from 'undici';
import { identityHeaders } from './identityHeaders.js';
import { OutputProgress } from './outputProgress.js';
import { joinSecrets, redactText, secretsOf, StreamRedactor } from './redactSecrets.js';
import type { StreamErrorType, StreamTimeouts } from './streamTypes.js';
import { OutputRate, slowWindowMs } from './outputRate.js';
import { isRunDeadline } from './runDeadline.js';

/**
 * One plain HTTP request with every piece of its answer timed as it arrives: what the
 * conformance probe needs to read a stream as a client sees it (where the text came, in how
 * many reads) and to send requests a stream client never sends (GET /models, non-streamed
 * completions, a request without the key). Never throws; redirects are not followed (the
 * daemon connects only to the configured baseUrl); credentials the request carried are
 * replaced by "[redacted]" in everything it returns. Once the headers are in, only output resets
 * the idle timer (outputProgress.ts), as in streamChat: a trickle or a stream of comments ends
 * in `timeout_idle` after idleSeconds, not at the total timeout; an event stream whose output
 * comes slower than the floor of outputRate.ts for a whole slowSeconds ends in `too_slow`; a
 * request the run's deadline aborts (runDeadline.ts) ends in `timeout_run`.
 */

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON (POST only). */
  body?: Record<string, unknown>;
}

export interface HttpOptions {
  timeouts: StreamTimeouts;
  /** Bytes of body kept; past it the exchange ends with `too_large`. */
  maxBytes: number;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** Monotonic clock in ms; default performance.now(). */
  now?: () => number;
  /**
   * Credentials redacted besides those the request carries: the target's own (a request sent
   * without the key, the conformance auth check, must not give out a key the server echoes) and
   * every other secret of the configuration (configSecrets.ts).
   */
  secrets?: readonly string[];
}

/** A read of the body: its text (UTF-8, split characters joined to the next read) and when it arrived. */
export interface BodyPiece {
  /** Milliseconds since the request was sent. */
  atMs: number;
  text: string;
}

export interface HttpExchange {
  /** null when no answer came (connect error, timeout before the headers). */
  status: number | null;
  contentType: string;
  /** The whole body as text, at most maxBytes. */
  body: string;
  pieces: BodyPiece[];
  /** Milliseconds from sending to the response headers; null without them. */
  headersAtMs: number | null;
  /** Milliseconds from sending to the end (or the error). */
  endedAtMs: number;
  error: { type: StreamErrorType; message: string } | null;
  /** The response's `server` and version headers (identityHeaders.ts); httpExchange always sets it. */
  identityHeaders?: Record<string, string>;
}

export type HttpFn = (req: HttpRequest, options: HttpOptions) => Promise<HttpExchange>;

const agents = new Map<number, Agent>();

/** One pool per connect timeout, so undici's connect timer is ours. */
function agentFor(connectMs: number): Agent {
  let agent = agents.get(connectMs);
  if (!agent) {
    agent = new Agent({ connect: { timeout: connectMs }, headersTimeout: 0, bodyTimeout: 0 });
    agents.set(connectMs, agent);
  }
  return agent;
}

/** Closes the pools of the default dispatchers (shutdown). */
export async function closeHttpDispatchers(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.destroy()));
}

const ms = (seconds: number): number | null =>
  Number.isFinite(seconds) && seconds > 0 ? Math.min(2 ** 31 - 1, Math.max(1, Math.round(seconds * 1000))) : null;

function codeOf(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return '';
}

/**
 * Drops a body unread. undici reports a body dropped before its end was read as an 'error'
 * event; unheard, that event ended the process (a target answering a fingerprint read with a
 * Content-Encoding stopped the daemon). The exchange has said what went wrong already.
 */
function dropBody(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {});
  body.destroy();
}

export const httpExchange: HttpFn = async (req, options) => {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const since = () => now() - started;
  const secrets = joinSecrets(secretsOf(req.headers), options.secrets);
  const redact = (text: string) => redactText(text, secrets);
  // A credential the server echoes may be split across two reads: the redactor holds the end
  // of each read back until the next one shows whether a piece of a secret goes on.
  const redactor = new StreamRedactor(secrets);
  const keep = (atMs: number, text: string, last: boolean) => {
    const clean = redactor.push(text) + (last ? redactor.end() : '');
    if (clean !== '') out.pieces.push({ atMs, text: clean });
  };
  const out: HttpExchange = { status: null, contentType: '', body: '', pieces: [], headersAtMs: null, endedAtMs: 0, error: null };
  const { timeouts } = options;
  const local = new AbortController();
  let timedOut = false;
  /** Set when the idle timer of the body (no output for idleSeconds) ended the exchange. */
  let idleOut: OutputProgress | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  /** Set when a window of the minimum output rate ended the exchange: the too_slow message. */
  let slowOut: string | null = null;
  let slowTimer: NodeJS.Timeout | null = null;
  const totalMs = ms(timeouts.totalSeconds);
  const timer =
    totalMs === null
      ? null
      : setTimeout(() => {
          timedOut = true;
          local.abort();
        }, totalMs);
  const signal = options.signal ? AbortSignal.any([options.signal, local.signal]) : local.signal;
  const idleMs = ms(timeouts.idleSeconds) ?? 0;
  const fail = (type: StreamErrorType, message: string) => {
    out.error = { type, message: redact(message) };
  };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v;
  headers['accept-encoding'] = 'identity';
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await request(req.url, {
      method: req.method,
      headers,
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      dispatcher: options.dispatcher ?? agentFor(ms(timeouts.connectSeconds) ?? 2 ** 31 - 1),
      signal,
      headersTimeout: idleMs,
      bodyTimeout: idleMs,
      reset: true,
    });
    out.status = res.statusCode;
    out.headersAtMs = since();
    out.identityHeaders = Object.fromEntries(
      Object.entries(identityHeaders(res.headers)).map(([name, value]) => [redact(name), redact(value)]),
    );
    const ct = res.headers['content-type'];
    out.contentType = (Array.isArray(ct) ? ct.join(', ') : (ct ?? '')).toLowerCase();
    const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity' && encoding !== '') {
      fail('malformed', `the body is ${encoding.slice(0, 40)}-encoded, which was not asked for (Accept-Encoding: identity)`);
      dropBody(res.body);
    } else {
      const decoder = new TextDecoder('utf-8');
      const progress = new OutputProgress(out.contentType.includes('text/event-stream'));
      if (idleMs > 0) {
        idleTimer = setTimeout(() => {
          idleOut = progress;
          local.abort();
        }, idleMs);
      }
      const slowMs = progress.sse ? slowWindowMs(timeouts.slowSeconds) : null;
      const rate = new OutputRate((slowMs ?? 0) / 1000);
      let outputSeen = 0;
      let bytes = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        const atMs = since();
        const room = options.maxBytes - bytes;
        bytes += chunk.byteLength;
        const text = decoder.decode(chunk.byteLength > room ? chunk.subarray(0, Math.max(0, room)) : chunk, { stream: true });
        if (progress.push(text, chunk.byteLength)) idleTimer?.refresh();
        if (slowMs !== null && rate.output(progress.outputBytes - outputSeen)) {
          slowTimer = setInterval(() => {
            const tooSlow = rate.windowEnded();
            if (tooSlow === null) return;
            slowOut = tooSlow;
            local.abort();
          }, slowMs);
        }
        outputSeen = progress.outputBytes;
        keep(atMs, text, false);
        if (bytes > options.maxBytes) {
          fail('too_large', `the answer passed ${options.maxBytes} bytes`);
          dropBody(res.body);
          break;
        }
      }
      keep(since(), decoder.decode(), true);
    }
  } catch (err) {
    const code = codeOf(err);
    const got = out.status === null ? 'before an answer' : 'while reading the answer';
    const idle = idleOut as OutputProgress | null;
    const slow = slowOut as string | null;
    if (timedOut) fail('timeout_total', `no complete answer within ${timeouts.totalSeconds} s`);
    else if (slow !== null) fail('too_slow', slow);
    else if (idle) {
      const meanwhile =
        idle.bytesSinceProgress > 0
          ? ` (${idle.bytesSinceProgress} bytes came meanwhile: comments, keep-alives or events sent a byte at a time)`
          : ' (no data)';
      fail('timeout_idle', `${idle.missing} for ${timeouts.idleSeconds} s ${got}${meanwhile}`);
    } else if (options.signal?.aborted && isRunDeadline(options.signal.reason))
      fail('timeout_run', `${options.signal.reason.message} ${got}`);
    else if (options.signal?.aborted) fail('aborted', 'aborted by the daemon (shutdown or reload)');
    else if (code === 'UND_ERR_CONNECT_TIMEOUT') fail('timeout_connect', `no connection within ${timeouts.connectSeconds} s`);
    else if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      fail('timeout_idle', `nothing received for ${timeouts.idleSeconds} s ${got}`);
    else fail(out.status === null ? 'connect' : 'truncated', `${code || 'error'} ${got}: ${(err as Error).message ?? String(err)}`);
  } finally {
    if (timer) clearTimeout(timer);
    if (idleTimer) clearTimeout(idleTimer);
    if (slowTimer) clearInterval(slowTimer);
  }
  const rest = redactor.end();
  if (rest !== '') out.pieces.push({ atMs: out.pieces.at(-1)?.atMs ?? since(), text: rest });
  out.body = out.pieces.map((p) => p.text).join('');
  out.endedAtMs = since();
  return out;
};
