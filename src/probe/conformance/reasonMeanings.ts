import type { CheckReason } from './checkTypes.js';

/** What each reason of a conformance check means, for docs/metrics.md (the type makes the compiler ask for each). */
export const CHECK_REASON_MEANINGS: Readonly<Record<CheckReason, string>> = {
  ok: 'the check passed (never a failure reason)',
  no_response: 'the request that decides the check got no answer (connect error, timeout)',
  http_status: 'it was answered with an HTTP status other than 2xx (GET /models missing: 404)',
  bad_body: 'the answer broke off, or is not the JSON object asked for',
  internal_error: "a bug in the exporter's check, reported instead of crashing the run",
  not_reasoning_model: 'skipped: the model does not reason (target reasoning: false, or no reasoning in its answers)',
  no_api_key: 'skipped: the target sends no key, so there is no refusal to check',
  tools_not_supported: 'skipped: the server refused a request with tools (400, 422, 501)',
  not_in_api: "skipped: the target's API has no such thing (tools and reasoning on completions)",
  model_not_listed: 'GET /models does not list the configured model or an alias',
  model_mismatch: 'an answer names another model than the one asked for (an alias routed elsewhere)',
  content_not_string:
    'choices[0].message.content is not a string (null: often the token limit spent reasoning); completions: choices[0].text; responses: no message item with output_text',
  usage_missing:
    'a non-streamed completion has no usage with the three token counts (responses: input_tokens, output_tokens, total_tokens)',
  usage_total_mismatch: 'usage.total_tokens is not prompt_tokens + completion_tokens (responses: input_tokens + output_tokens)',
  unknown_finish_reason: 'a finish_reason clients do not know (a proxy rewrote it, or a vendor value)',
  field_type: 'a field clients read has another type (created as a string, no delta, ...)',
  reasoning_missing: "a reasoning model's answer carries no reasoning field: a gateway dropped it",
  think_in_content: 'a <think> block in content: the server has no reasoning parser for this model',
  no_tool_call: 'a prompt that needs the offered tool got no tool_calls',
  wrong_tool_name: 'the call names another function than the one offered',
  arguments_not_json: "the call's arguments do not parse as JSON",
  arguments_schema: "the arguments do not fit the tool's JSON Schema",
  finish_not_tool_calls: 'a tool was called but finish_reason is not tool_calls',
  stream_mismatch: 'the streamed deltas reassemble to other calls than the non-streamed answer',
  index_collision: 'two calls were streamed under one index (or share an id): their arguments run together',
  not_streamed: 'asked to stream, the server answered with something else, or with no text',
  buffered: 'the text arrived at the end of the stream: a proxy or load balancer buffers it',
  no_done: 'the stream ended without data: [DONE] (responses: without response.completed or response.incomplete)',
  usage_chunk_missing:
    'no usage chunk came although stream_options.include_usage asked for it (responses: response.completed has no usage)',
  usage_count_mismatch: "the usage chunk's completion_tokens disagree with the deltas that came",
  max_tokens_exceeded: 'max_tokens 16 gave more completion tokens: the limit did not reach the server',
  finish_not_length: 'an answer cut by max_tokens says another finish_reason than length (responses: not incomplete for max_output_tokens)',
  stop_ignored: 'a stop sequence appears in the output: it was dropped on the way',
  accepted_without_key: 'the request without the key was answered 2xx: the endpoint is open',
  accepted_wrong_key: 'the request with a wrong key was answered 2xx',
  unexpected_status: 'a request without the right key was answered with a status other than 401 or 403',
};
