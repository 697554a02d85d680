import type { Analysis, VerdictMode } from './analysisTypes.js';
import { Engine } from './engine.js';
import { tokenRoom } from './text/tokenizer.js';
import { giveBackTokenBuffer, takeTokenBuffer } from './text/tokens.js';
import { scoringModel } from './scoringModel.js';
import { resolveThresholds } from './streamAnalyzer.js';
import type { Thresholds } from './thresholds.js';
import { analysisOf } from './verdict.js';
import type { VerdictModel } from './verdictModel.js';

export interface AnalyzeOptions {
  thresholds?: Partial<Thresholds>;
  /** Char offsets (UTF-16) where each stream token starts, ascending; adds token indexes to findings and metrics. */
  tokenOffsets?: ArrayLike<number>;
  /**
   * How the generation ended, when known (the stream's finish_reason). 'length' means it
   * was cut by the token limit: a loop, flood or runaway list running into that limit is a
   * collapse whatever its size.
   */
  finishReason?: string | null;
  /** Who decides the verdict: 'rules' (default; the model's score is information) or 'learned' (see learnedVerdict.ts). */
  verdict?: VerdictMode;
  /** A retrained model (loadVerdictModel) instead of the committed one. */
  verdictModel?: VerdictModel;
  /**
   * Under the rules, also give the learned model's score (`analysis.score`) as information.
   * Off by default: it reads the tail again and costs about a fifth of a call on real answers.
   * The learned verdict always computes it (it decides with it).
   */
  score?: boolean;
  /**
   * The language (ISO 639-1) the prompt asked the answer in: a switch into it or into its script is then no
   * `script_switch` or `language_switch` (a translation asked for after a line in English). Whether the answer is in it
   * is measured apart (answerLanguage.ts, probes[].expect.language).
   */
  expectLanguage?: string;
}

/**
 * Analyze a whole text: O(n) time. Same result as a stream analyzer fed the text in any
 * deltas (it is the same engine, fed once).
 */
export function analyzeText(text: string, options: AnalyzeOptions = {}): Analysis {
  const thresholds = resolveThresholds(options.thresholds);
  // the analysis holds none of the tokens once made: their buffer serves the next call
  const tokens = takeTokenBuffer(tokenRoom(text.length));
  try {
    const engine = new Engine(text.length, tokens);
    engine.push(text);
    return analysisOf(engine, {
      thresholds,
      slice: (a: number, b: number) => text.slice(a, b),
      tokenOffsets: options.tokenOffsets,
      finishReason: options.finishReason ?? null,
      model: scoringModel(options),
      verdict: options.verdict ?? 'rules',
      expectLanguage: options.expectLanguage ?? null,
    });
  } finally {
    giveBackTokenBuffer(tokens);
  }
}

export { createStreamAnalyzer, isCertainFail } from './streamAnalyzer.js';
export type { StreamAnalyzer, StreamAnalyzerOptions } from './streamAnalyzer.js';
