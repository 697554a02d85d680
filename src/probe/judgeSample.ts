import { analyzeText } from '../core/analyzeText.js';
import type { Analysis } from '../core/analysisTypes.js';
import type { StreamResult } from '../client/streamTypes.js';
import type { ProbeConfig } from '../config/types.js';
import { worstVerdict, type SampleErrorType, type SampleResult, type SampleVerdict } from './probeTypes.js';

/** Turns a finished stream into a sample: analysis of each channel, then the verdict rules. Pure. */
export function judgeSample(
  result: StreamResult,
  probe: ProbeConfig,
  index: number,
  analysed?: { content: Analysis; reasoning: Analysis | null },
): SampleResult {
  const opts = { thresholds: probe.thresholds };
  const hasText = result.content.length > 0 || result.reasoning.length > 0;
  const content = analysed?.content ?? analyzeText(result.content, opts);
  const reasoning = analysed ? analysed.reasoning : result.reasoning ? analyzeText(result.reasoning, opts) : null;
  const combined = reasoning ? analyzeText(`${result.reasoning}\n\n${result.content}`, opts) : content;

  const reasons: string[] = [];
  let verdict: SampleVerdict;
  const error = result.error;
  // A non-streamed chat completion still says how the model writes; an HTML page does not.
  if (error && !(error.type === 'not_streaming' && hasText)) {
    verdict = 'error';
    reasons.push(`${error.type}: ${error.message}`);
  } else {
    if (error) reasons.push(`${error.type}: ${error.message} (the body was analysed anyway)`);
    verdict = textVerdict(result, content, reasoning, reasons);
    if (result.stopReason === 'repetition_detected') {
      verdict = 'fail';
      reasons.push('engine_repetition_stop: the server stopped the generation because it detected repetition');
    }
    if (verdict === 'ok' && result.outputTokens < probe.minTokens) {
      verdict = 'warn';
      reasons.push(
        `inconclusive: ${result.outputTokens} output tokens, fewer than minTokens ${probe.minTokens} (finish_reason ${result.finishReason ?? 'none'})`,
      );
    }
  }

  const streamingSeconds = result.ttftSeconds === null ? 0 : result.durationSeconds - result.ttftSeconds;
  return {
    index,
    verdict,
    reasons,
    findings: findingKinds(reasons),
    finishReason: result.finishReason,
    stopReason: result.stopReason,
    outputTokens: result.outputTokens,
    ttftSeconds: result.ttftSeconds,
    ttfcSeconds: result.ttfcSeconds,
    durationSeconds: result.durationSeconds,
    tokensPerSecond: streamingSeconds > 0 && result.outputTokens > 0 ? result.outputTokens / streamingSeconds : null,
    contentChars: result.content.length,
    reasoningChars: result.reasoning.length,
    chunks: result.chunks,
    maxGapSeconds: result.maxGapSeconds,
    endedCleanly: result.endedCleanly,
    aborted: false,
    tokensAtAbort: null,
    onsetToken: null,
    tokensSaved: 0,
    metrics: hasText || !error ? { content: content.metrics, reasoning: reasoning?.metrics ?? null, combined: combined.metrics } : null,
    error,
    content: result.content,
    reasoning: result.reasoning,
  };
}

function textVerdict(result: StreamResult, content: Analysis, reasoning: Analysis | null, reasons: string[]): SampleVerdict {
  // A reasoning model that spent the whole budget thinking returns no content: that says the
  // probe's maxTokens is too small, not that the model collapsed (unless the reasoning did).
  const contentBlank = result.content.trim().length === 0;
  if (contentBlank && reasoning && reasoning.verdict !== 'fail' && result.finishReason === 'length') {
    reasons.push('inconclusive: the token budget ran out during reasoning, no content was produced');
    return 'warn';
  }
  const verdicts: SampleVerdict[] = [content.verdict];
  for (const r of content.reasons) reasons.push(`content: ${r}`);
  if (reasoning) {
    verdicts.push(reasoning.verdict);
    for (const r of reasoning.reasons) reasons.push(`reasoning: ${r}`);
  }
  return worstVerdict(verdicts);
}

export function crashedSample(index: number, err: unknown): SampleResult {
  return errorSample(index, 'internal', err instanceof Error ? err.message : String(err));
}

export function errorSample(index: number, type: SampleErrorType, message: string): SampleResult {
  return {
    index,
    verdict: 'error',
    reasons: [`${type}: ${message}`],
    findings: [],
    finishReason: null,
    stopReason: null,
    outputTokens: 0,
    ttftSeconds: null,
    ttfcSeconds: null,
    durationSeconds: 0,
    tokensPerSecond: null,
    contentChars: 0,
    reasoningChars: 0,
    chunks: 0,
    maxGapSeconds: 0,
    endedCleanly: false,
    aborted: false,
    tokensAtAbort: null,
    onsetToken: null,
    tokensSaved: 0,
    metrics: null,
    error: { type, message },
    content: '',
    reasoning: '',
  };
}

/** Reasons read "[channel: ]kind: detail"; the kind is a bounded snake_case code. */
export function findingKinds(reasons: readonly string[]): string[] {
  const kinds = new Set<string>();
  for (const r of reasons) {
    const parts = r.split(': ');
    const kind = parts[0] === 'content' || parts[0] === 'reasoning' ? parts[1] : parts[0];
    if (kind && /^[a-z][a-z0-9_]*$/.test(kind)) kinds.add(kind);
  }
  return [...kinds];
}
