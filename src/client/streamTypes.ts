import type { StreamAccumulation } from '../core/streamAccumulator.js';
import type { LogprobSummary } from '../core/logprobTrace.js';
import type { StreamApi } from '../core/apiChunks.js';

/** Stable error types of a streamed chat completion. Callers branch on these, never on messages. */
export type StreamErrorType =
  | 'connect'
  | 'http_status'
  | 'timeout_connect'
  | 'timeout_idle'
  | 'timeout_total'
  /** The run's deadline (timeouts.runSeconds) passed while this request ran (client/runDeadline.ts). */
  | 'timeout_run'
  /** Output came slower than the floor of client/outputRate.ts for a whole timeouts.slowSeconds. */
  | 'too_slow'
  | 'truncated'
  | 'malformed'
  | 'server_error_event'
  | 'not_streaming'
  | 'too_large'
  | 'aborted';

export interface StreamTimeouts {
  connectSeconds: number;
  idleSeconds: number;
  totalSeconds: number;
  /** The window of the minimum output rate (client/outputRate.ts); absent: DEFAULT_SLOW_SECONDS. */
  slowSeconds?: number;
}

export interface ChatRequest {
  /** Full URL, e.g. http://127.0.0.1:8000/v1/chat/completions */
  url: string;
  headers: Record<string, string>;
  /** JSON body; the client sends it as is (the caller sets stream: true etc.). */
  body: Record<string, unknown>;
  /** The API whose events the answer carries (core/apiChunks.ts); absent: chat. */
  api?: StreamApi;
}

/** What the caller sees while the stream runs (for incremental analysis and early abort). */
export interface StreamProgress {
  contentDelta: string;
  reasoningDelta: string;
  /** Output tokens so far (content + reasoning deltas counted, or usage when the server sent it). */
  tokens: number;
  /** SSE chunks so far (streamChat always sets it). */
  chunks?: number;
  /** Response body bytes so far (streamChat always sets it). */
  bytes?: number;
  /** Seconds since the request started (streamChat always sets it). */
  elapsedSeconds?: number;
}

/** What was read from the stream (see StreamAccumulation), plus timing and the outcome of the request. */
export interface StreamResult
  extends Pick<
    StreamAccumulation,
    'content' | 'reasoning' | 'finishReason' | 'stopReason' | 'outputTokens' | 'outputTokensSource' | 'promptTokens'
  > {
  /** Per-token logprob figures when the server sent logprobs (asked by logprobs: true); null or absent otherwise. */
  logprobs?: LogprobSummary | null;
  /** Parts of an array `content` of a type that is neither text nor thinking (images, audio, tool blocks): kept out of both channels. */
  unknownContentParts?: number;
  /** Seconds from request start to the first content or reasoning delta. */
  ttftSeconds: number | null;
  /** Seconds from request start to the first content delta. */
  ttfcSeconds: number | null;
  durationSeconds: number;
  /** Number of SSE data events that carried a chunk. */
  chunks: number;
  /** Gaps between consecutive token-carrying chunks, seconds. */
  maxGapSeconds: number;
  /** Every gap between consecutive token-carrying chunks, seconds (for an inter-token histogram; streamChat always sets it). */
  gapsSeconds?: number[];
  /** Response body bytes received (streamChat always sets it). */
  bytes?: number;
  /** True when the stream ended with [DONE] or a finish_reason and then EOF. */
  endedCleanly: boolean;
  /** HTTP status of the response, null when none was received. */
  httpStatus: number | null;
  error: { type: StreamErrorType; message: string } | null;
  /** What the server says served the request (fingerprints); streamChat always sets it. */
  served?: ServedBy;
}

/** What a response says about the server that made it: fields of its chunks and identity headers. */
export interface ServedBy {
  /** The `model` the chunks named; null when none did. */
  model: string | null;
  systemFingerprint: string | null;
  /** `server` and version headers (client/identityHeaders.ts), names in lower case. */
  headers: Record<string, string>;
}

/**
 * The default byte cap on one response. 10k tokens of vLLM chunks are ~2–3.5 MB; 8 MiB leaves room
 * for reasoning and usage-per-chunk. Here, not in streamChat, so callers that size a cap do not load
 * the HTTP client.
 */
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;
