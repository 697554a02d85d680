import type { StreamAccumulation } from '../core/streamAccumulator.js';
import type { ResponseBody } from './responseBody.js';
import type { ResponseHead } from './responseHead.js';
import type { StreamErrorType, StreamResult } from './streamTypes.js';

const SNIPPET_CHARS = 200;

type StreamError = { type: StreamErrorType; message: string };

/** What the call knows when it settles, besides the body's accumulation. */
export interface CallEnd {
  url: string;
  startMs: number;
  endMs: number;
  /** The response's status and headers; null when none came. */
  head: ResponseHead | null;
  /** True when the call had the response headers (a stream cut then is a truncation, not "no response"). */
  hadBody: boolean;
  /** The error that ended the call early (a timeout, an abort, a lost connection). */
  pendingError: StreamError | null;
  redact: (text: string) => string;
}

/**
 * The error a settled call reports: an error status first, then the body's first bad event
 * (the root cause of anything after it), then what ended the call early, then a body that was
 * not a stream, then a stream that ended without saying it was complete.
 */
export function resultError(acc: StreamAccumulation, body: ResponseBody, end: CallEnd): StreamError | null {
  let error: StreamError | null = null;
  const status = end.head?.httpStatus ?? null;
  if (body.mode === 'error_status' && status !== null) {
    // Redact before cutting: a key cut in half by the snippet would no longer match.
    const snippet = flatSnippet(end.redact(body.bufferedText()));
    error = {
      type: 'http_status',
      message: `HTTP ${status}${statusLabel(status)}${redirectNote(status, end.head?.location ?? '', end.url)}${snippet !== '' ? `: ${snippet}` : ''}`,
    };
  } else if (acc.error !== null) {
    error = { ...acc.error };
  } else if (end.pendingError !== null) {
    error = end.pendingError;
  } else if (body.mode === 'buffer' || body.mode === 'sniff') {
    const ct = end.head === null || end.head.contentType === '' ? 'no content-type' : end.head.contentType;
    if (acc.chunks > 0 && (acc.content !== '' || acc.reasoning !== '' || acc.finishReason !== null)) {
      error = {
        type: 'not_streaming',
        message: `server answered ${ct} instead of text/event-stream (stream ignored); the completion body was analysed`,
      };
    } else {
      const snippet = flatSnippet(end.redact(body.bufferedText()));
      error = {
        type: 'not_streaming',
        message: `server answered ${ct} instead of text/event-stream${snippet !== '' ? `: ${snippet}` : ''}`,
      };
    }
  } else if (!acc.endedCleanly) {
    // a responses stream has neither: its last event says it is finished
    const awaited = body.api === 'responses' ? 'response.completed (or incomplete)' : 'a finish_reason or [DONE]';
    error = { type: 'truncated', message: end.hadBody ? `stream ended before ${awaited}` : 'no response' };
  }
  if (error !== null) error.message = end.redact(error.message);
  return error;
}

/** The call's result from its body, its tail read now, and how the call ended. */
export function streamResult(body: ResponseBody, end: CallEnd): StreamResult {
  const acc = body.accumulation(end.endMs, end.pendingError !== null);
  const error = resultError(acc, body, end);
  const sec = (ms: number | null): number | null => (ms === null ? null : Math.max(0, (ms - end.startMs) / 1000));
  return {
    // A server that echoes the key (in an error, or as "you sent Bearer sk-…" in its answer)
    // must not put it into the sample's text, /runs or a stored run.
    content: end.redact(acc.content),
    reasoning: end.redact(acc.reasoning),
    finishReason: acc.finishReason,
    stopReason: acc.stopReason,
    outputTokens: acc.outputTokens,
    outputTokensSource: acc.outputTokensSource,
    promptTokens: acc.promptTokens,
    unknownContentParts: acc.unknownContentParts,
    logprobs: acc.logprobs,
    ttftSeconds: sec(acc.firstTokenAtMs),
    ttfcSeconds: sec(acc.firstContentAtMs),
    durationSeconds: Math.max(0, (end.endMs - end.startMs) / 1000),
    chunks: acc.chunks,
    maxGapSeconds: acc.maxGapMs / 1000,
    gapsSeconds: acc.gapsMs.map((g) => g / 1000),
    endedCleanly: error === null && acc.endedCleanly,
    httpStatus: end.head?.httpStatus ?? null,
    bytes: body.rawBytes,
    error,
    // What the server says of itself goes to fingerprints and to the OTLP events' response model.
    served: {
      model: orNull(acc.servedModel, end.redact),
      systemFingerprint: orNull(acc.systemFingerprint, end.redact),
      headers: Object.fromEntries(Object.entries(end.head?.identity ?? {}).map(([k, v]) => [end.redact(k), end.redact(v)])),
    },
  };
}

function orNull(v: string | null, redact: (text: string) => string): string | null {
  return v === null ? null : redact(v);
}

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

function flatSnippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
}
