import type { ConformanceCheckName } from '../../config/probeKindTypes.js';
import type { StreamApi } from '../../core/apiChunks.js';
import { AUTH_MAX_TOKENS, checkAuth } from './auth.js';
import { checkChat } from './chat.js';
import type { CheckContext } from './checkContext.js';
import type { CheckVerdict } from './checkTypes.js';
import { checkFields } from './fields.js';
import { checkLimits, LIMIT_TOKENS } from './limits.js';
import { checkModels } from './models.js';
import { checkReasoning } from './reasoning.js';
import { checkStreaming } from './streaming.js';
import { checkTools } from './tools.js';

/** Every check has this one signature; the conformance probe picks them by name from this map. */
export type ConformanceCheck = (ctx: CheckContext) => Promise<CheckVerdict>;

export const CHECKS: Readonly<Record<ConformanceCheckName, ConformanceCheck>> = Object.freeze({
  models: checkModels,
  chat: checkChat,
  fields: checkFields,
  reasoning: checkReasoning,
  tools: checkTools,
  streaming: checkStreaming,
  limits: checkLimits,
  auth: checkAuth,
});

/**
 * What each check sends, for the cost of a run: the shared answers it reads (a completion and a
 * stream, sent once per run whichever checks read them) and its own requests' output-token caps.
 */
const SENDS: Readonly<Record<ConformanceCheckName, { shared: readonly ('completion' | 'stream')[]; own: (maxTokens: number) => number }>> =
  {
    models: { shared: ['completion', 'stream'], own: () => 0 },
    chat: { shared: ['completion'], own: () => 0 },
    fields: { shared: ['completion', 'stream'], own: () => 0 },
    reasoning: { shared: ['completion', 'stream'], own: () => 0 },
    // one call, the same streamed, two calls streamed
    tools: { shared: [], own: (m) => 3 * m },
    streaming: { shared: ['stream'], own: () => 0 },
    // max_tokens 16, then a stop sequence
    limits: { shared: [], own: (m) => LIMIT_TOKENS + m },
    // without the key, with a wrong one
    auth: { shared: [], own: () => 2 * AUTH_MAX_TOKENS },
  };

/**
 * What the checks send on another API than chat: completions has no tools and no reasoning to
 * read (both skipped, nothing sent), and the responses API no stop sequences (limits sends one request).
 */
const API_SENDS: Readonly<Record<Exclude<StreamApi, 'chat'>, Partial<typeof SENDS>>> = {
  completions: { reasoning: { shared: [], own: () => 0 }, tools: { shared: [], own: () => 0 } },
  responses: { limits: { shared: [], own: () => LIMIT_TOKENS } },
};

/** The output tokens a conformance run asks for at most (maxTokens per request, fixed caps for limits and auth). */
export function conformanceTokenBudget(maxTokens: number, checks: readonly ConformanceCheckName[], api: StreamApi = 'chat'): number {
  const sends = api === 'chat' ? SENDS : { ...SENDS, ...API_SENDS[api] };
  const shared = new Set(checks.flatMap((c) => sends[c].shared));
  return shared.size * maxTokens + checks.reduce((n, c) => n + sends[c].own(maxTokens), 0);
}
