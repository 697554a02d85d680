import { errorBody } from '../chunks.js';
import { healthySource } from './healthy.js';
import { generation, type BodyPlan, type ScenarioDefinition } from './types.js';

/** Tokens sent before a mid-stream fault when the model name gives no `@N`. */
export const DEFAULT_FAULT_AT = 50;

function jsonError(status: number, body: string, headers: Record<string, string> = {}): BodyPlan {
  return { kind: 'body', status, contentType: 'application/json', body, headers };
}

// What an nginx in front of a dead upstream sends; some proxies even send it with a 200.
const HTML_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export const faultScenarios: ScenarioDefinition[] = [
  {
    name: 'fault-stall',
    description: 'N healthy tokens, then silence with the connection held open',
    param: `tokens before the stall (default ${DEFAULT_FAULT_AT})`,
    run: ({ seed, maxTokens, param }) =>
      generation(healthySource(seed), Math.min(param ?? DEFAULT_FAULT_AT, maxTokens), { ending: { type: 'stall' } }),
  },
  {
    name: 'fault-cut',
    description: 'N healthy tokens, then the socket is destroyed (no finish_reason, no [DONE])',
    param: `tokens before the cut (default ${DEFAULT_FAULT_AT})`,
    run: ({ seed, maxTokens, param }) =>
      generation(healthySource(seed), Math.min(param ?? DEFAULT_FAULT_AT, maxTokens), { ending: { type: 'cut' } }),
  },
  {
    name: 'fault-slow-start',
    description: 'waits MS milliseconds before sending the response headers, then streams healthy prose',
    param: 'milliseconds before the headers (default 5000)',
    run: ({ seed, maxTokens, param }) => generation(healthySource(seed), maxTokens, { headerDelayMs: param ?? 5000 }),
  },
  {
    name: 'fault-500',
    description: 'HTTP 500 with an OpenAI-style JSON error body',
    param: null,
    run: () =>
      jsonError(500, errorBody('The server had an error while processing your request (simulated).', 'server_error', 'internal_error')),
  },
  {
    name: 'fault-401',
    description: 'HTTP 401 with an OpenAI-style invalid_api_key error',
    param: null,
    run: () =>
      jsonError(401, errorBody('Incorrect API key provided (simulated).', 'invalid_request_error', 'invalid_api_key'), {
        'WWW-Authenticate': 'Bearer',
      }),
  },
  {
    name: 'fault-429',
    description: 'HTTP 429 rate limit error with Retry-After: 1',
    param: null,
    run: () =>
      jsonError(429, errorBody('Rate limit reached for requests (simulated). Please try again in 1s.', 'requests', 'rate_limit_exceeded'), {
        'Retry-After': '1',
      }),
  },
  {
    name: 'fault-garbage',
    description: 'a `data: not json` event after N tokens, then the stream carries on and finishes',
    param: `tokens before the garbage line (default ${DEFAULT_FAULT_AT})`,
    run: ({ seed, maxTokens, param }) =>
      generation(healthySource(seed), maxTokens, { inject: { at: param ?? DEFAULT_FAULT_AT, raw: 'data: not json\n\n' } }),
  },
  {
    name: 'fault-error-event',
    description: 'N tokens, then `data: {"error": {...}}` inside the 200 stream and [DONE]',
    param: `tokens before the error event (default ${DEFAULT_FAULT_AT})`,
    run: ({ seed, maxTokens, param }) =>
      generation(healthySource(seed), Math.min(param ?? DEFAULT_FAULT_AT, maxTokens), {
        ending: {
          type: 'error-event',
          error: { message: 'The engine hit an internal error mid-generation (simulated).', type: 'server_error', param: null, code: 500 },
        },
      }),
  },
  {
    name: 'fault-json',
    description: 'a complete chat.completion JSON body even though the request asked for stream: true',
    param: null,
    run: ({ seed, maxTokens }) => generation(healthySource(seed), maxTokens, { ignoreStream: true }),
  },
  {
    name: 'fault-html',
    description: 'an nginx "502 Bad Gateway" HTML page with text/html (status 200 unless @STATUS)',
    param: 'HTTP status of the HTML page (default 200)',
    run: ({ param }) => ({
      kind: 'body',
      status: param !== null && param >= 200 && param <= 599 ? param : 200,
      contentType: 'text/html',
      body: HTML_PAGE,
      headers: {},
    }),
  },
  {
    name: 'fault-forever',
    description: 'healthy prose that never ends: ignores max_tokens, never sends finish_reason',
    param: null,
    run: ({ seed }) => generation(healthySource(seed), null),
  },
  {
    name: 'fault-no-usage',
    description: 'a healthy stream without the usage chunk, even with include_usage',
    param: null,
    run: ({ seed, maxTokens }) => generation(healthySource(seed), maxTokens, { usage: false }),
  },
];
