import type { Analysis } from './analysisTypes.js';
import { type AnalyzeOptions, analyzeText } from './analyzeText.js';

/** The two texts of a stream: the answer, and the reasoning that came before it ('' for none). */
export interface StreamChannels {
  content: string;
  reasoning: string;
}

export interface ChannelAnalyses {
  content: Analysis;
  /** null when the stream carried no reasoning. */
  reasoning: Analysis | null;
}

/**
 * The finish reason a reasoning trace is judged with: the stream's own when nothing followed the
 * reasoning, else 'stop'. A reasoning followed by an answer was not cut inside the reasoning,
 * whatever cut the answer later.
 */
export function reasoningFinishReason(finishReason: string | null, contentChars: number): string | null {
  return contentChars > 0 ? 'stop' : finishReason;
}

/**
 * Each channel of a stream analysed on its own, as a probe's sample judges them (and
 * `analyze --channel both`): a model may reason in one language and answer in another, so the
 * two are never read as one text for a verdict. `options` are the answer's (its token offsets
 * and the stream's finish reason); the reasoning gets the same thresholds and verdict mode,
 * with the finish reason of reasoningFinishReason and no token offsets.
 */
export function analyzeChannels(texts: StreamChannels, options: AnalyzeOptions): ChannelAnalyses {
  const content = analyzeText(texts.content, options);
  if (!texts.reasoning) return { content, reasoning: null };
  const { tokenOffsets: _answerTokens, ...shared } = options;
  const finishReason = reasoningFinishReason(options.finishReason ?? null, texts.content.length);
  return { content, reasoning: analyzeText(texts.reasoning, { ...shared, finishReason }) };
}
