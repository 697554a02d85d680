import type { VerdictMode } from './analysisTypes.js';
import { DEFAULT_VERDICT_MODEL } from './defaultVerdictModel.js';
import type { VerdictModel } from './verdictModel.js';

/** What decides whether a finished text is scored: the verdict mode, the model, and whether the score was asked for under the rules. */
export interface ScoringOptions {
  verdict?: VerdictMode | undefined;
  verdictModel?: VerdictModel | undefined;
  score?: boolean | undefined;
}

/**
 * The model that scores a finished text, or undefined when nobody needs its score: the learned
 * verdict decides with it; under the rules it is information, computed when asked for.
 */
export function scoringModel(o: ScoringOptions): VerdictModel | undefined {
  return o.verdict === 'learned' || o.score === true ? (o.verdictModel ?? DEFAULT_VERDICT_MODEL) : undefined;
}
