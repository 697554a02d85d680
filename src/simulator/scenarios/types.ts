import type { MessageText } from '../messageTexts.js';
import type { TokenSource } from '../tokenSource.js';

/** How a generated response ends once its tokens run out or its limit is reached. */
export type StreamEnding =
  /** Finish chunk ("stop" when the text ended, "length" at the limit), usage chunk, [DONE]. */
  | { type: 'finish' }
  /** Go silent with the connection open, until the client leaves or the simulator closes. */
  | { type: 'stall' }
  /** Destroy the socket: no finish chunk, no [DONE], no chunked-encoding terminator. */
  | { type: 'cut' }
  /** A `data: {"error": ...}` event inside the 200 stream, then [DONE], as vLLM does on engine errors. */
  | { type: 'error-event'; error: Record<string, unknown> };

/** A response made of tokens: streamed as SSE, or one chat.completion body when not streaming. */
export interface GenerationPlan {
  kind: 'generation';
  source: TokenSource;
  /** Tokens to send before the ending; null = no limit, the source decides (possibly never). */
  limit: number | null;
  ending: StreamEnding;
  /** Raw SSE text written once, just before token `at` (or just before the ending if it never comes). */
  inject: { at: number; raw: string } | null;
  /** false: never send the usage chunk, whatever stream_options asks. */
  usage: boolean;
  /** true: answer with a chat.completion JSON body even when the request asked to stream. */
  ignoreStream: boolean;
  /** Wait this long before sending the response headers (a slow or queued engine). */
  headerDelayMs: number;
  /** The finish_reason when the source ends by itself ("stop"; "tool_calls" for an answer that calls tools). */
  naturalFinish?: string;
}

/** A fixed response: an HTTP error, an HTML page. */
export interface BodyPlan {
  kind: 'body';
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

export type ScenarioPlan = GenerationPlan | BodyPlan;

export interface ScenarioContext {
  /** The request's max_tokens (or max_completion_tokens), defaulted. */
  maxTokens: number;
  /** The integer after `@` in the model name; null when absent. */
  param: number | null;
  /** Derived from the simulator's seed, the request's seed and its messages. */
  seed: number;
  /** The request's temperature; null when it sent none (absent: callers from before sweeps). */
  temperature?: number | null;
  /** The request's messages, role and text. */
  messages: readonly MessageText[];
  /** The last user message of the previous request to the same scenario; null for the first. */
  previousLastUser: string | null;
}

/** Every scenario has this one signature and is picked by name from a map. */
export type Scenario = (context: ScenarioContext) => ScenarioPlan;

export interface ScenarioDefinition {
  name: string;
  /** One line, for `/v1/models`, the CLI and error messages. */
  description: string;
  /** What `@N` means for this scenario; null when it takes no parameter. */
  param: string | null;
  run: Scenario;
}

/** A plan that streams `source` up to max_tokens and finishes normally. */
export function generation(source: TokenSource, limit: number | null, overrides: Partial<GenerationPlan> = {}): GenerationPlan {
  return {
    kind: 'generation',
    source,
    limit,
    ending: { type: 'finish' },
    inject: null,
    usage: true,
    ignoreStream: false,
    headerDelayMs: 0,
    ...overrides,
  };
}
