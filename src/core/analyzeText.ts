import type { Analysis } from './analysisTypes.js';
import { Engine } from './engine.js';
import { resolveThresholds } from './streamAnalyzer.js';
import type { Thresholds } from './thresholds.js';
import { buildAnalysis } from './verdict.js';

export interface AnalyzeOptions {
  thresholds?: Partial<Thresholds>;
  /** Char offsets (UTF-16) where each stream token starts, ascending; adds metrics.repeatOnsetToken. */
  tokenOffsets?: ArrayLike<number>;
}

/**
 * Analyze a whole text: O(n) time, one pass. Same result as a stream analyzer fed
 * the text in any deltas (it is the same engine, fed once).
 */
export function analyzeText(text: string, options: AnalyzeOptions = {}): Analysis {
  const thresholds = resolveThresholds(options.thresholds);
  const engine = new Engine(thresholds);
  engine.push(text);
  return buildAnalysis(engine.figures(), {
    thresholds,
    slice: (a, b) => text.slice(a, b),
    tokenOffsets: options.tokenOffsets,
  });
}

export { createStreamAnalyzer, isCertainFail } from './streamAnalyzer.js';
export type { StreamAnalyzer, StreamAnalyzerOptions } from './streamAnalyzer.js';
