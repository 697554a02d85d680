import type { ReleaseOptions } from './release.js';

export interface SimulatorOptions {
  /** Interface to listen on; default 127.0.0.1 (loopback only). */
  host?: string;
  /** 0 (the default) = any free port. */
  port?: number;
  /** Pacing of streamed tokens; 0 (the default) = as fast as the client reads. */
  tokensPerSecond?: number;
  /** Base seed of the generated text; a request's own seed and messages are mixed in. Default 1. */
  seed?: number;
  /** When set, every request must carry `Authorization: Bearer <apiKey>` (else 401), unless its path switches on `auth-open`. */
  apiKey?: string;
  /** The release switch (release.ts): after `after` chat requests the simulator reports release 2 and answers from `degradeTo`. */
  release?: ReleaseOptions;
  /** The scenarios `GET /v1/models` lists (a server that serves one model, or a few); default: every scenario. Chat requests may still name any. */
  listedModels?: readonly string[];
}

/** One chat completion request as the simulator saw it; updated live while it streams. */
export interface SimulatedRequest {
  /** The completion id sent to the client (chatcmpl-…). */
  id: string;
  /** The model name as requested, e.g. "collapse-sentence@500". */
  model: string;
  /** The scenario name, e.g. "collapse-sentence". */
  scenario: string;
  maxTokens: number;
  stream: boolean;
  /** The request's temperature (null when it sent none). */
  temperature: number | null;
  /** The request asked for logprobs (and got them). */
  logprobs: boolean;
  /** HTTP status sent (200 for streams). */
  status: number;
  /** Content and reasoning tokens written so far. */
  tokensSent: number;
  /** tokensSent when the client went away before the response ended; null otherwise. */
  clientClosedAtToken: number | null;
  /** true once the response was written to its planned end (a fault body counts; a cut or stall does not). */
  finished: boolean;
  /** The API asked (its path: /v1/completions or /v1/responses); absent for chat. */
  api?: 'completions' | 'responses';
}

export interface Simulator {
  /** Base URL including /v1, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  port: number;
  /** The most recent requests (at most REQUEST_LOG_LIMIT), newest last. */
  requests: SimulatedRequest[];
  /** Ends every open response (stalled and endless ones too) and stops listening. */
  close(): Promise<void>;
}
