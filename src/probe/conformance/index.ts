import type { ConformanceCheckName } from '../../config/probeKindTypes.js';
import { checkAuth } from './auth.js';
import { checkChat } from './chat.js';
import type { CheckContext } from './checkContext.js';
import type { CheckVerdict } from './checkTypes.js';
import { checkFields } from './fields.js';
import { checkLimits } from './limits.js';
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
