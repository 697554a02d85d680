import { StreamAccumulator } from '../src/core/streamAccumulator.js';
import type { StreamFn } from '../src/probe/probeDeps.js';
import { createChunkEncoder } from '../src/simulator/chunks.js';
import { createHealthyText } from '../src/prose/healthyText.js';
import { tokenize } from '../src/prose/tokenize.js';

/** SSE events per push: what one socket read of a fast stream carries. */
const EVENTS_PER_PUSH = 32;

/**
 * A stream function for ProbeService that never touches a socket but builds each sample's
 * text exactly as streamChat does: healthy prose cut into tokens, one SSE event per token,
 * pushed through the StreamAccumulator and reported delta by delta to the live analyzer.
 * Each sample gets fresh text (a new seed), so nothing is shared between samples. With
 * reasoningShare, that share of the tokens comes first as reasoning_content, as a reasoning
 * model sends it.
 */
export function accumulatedStream(tokensPerSample: number, firstSeed = 1, reasoningShare = 0): StreamFn {
  let seed = firstSeed;
  return async (_request, options) => {
    const text = createHealthyText(seed++);
    const encoder = createChunkEncoder({ id: 'chatcmpl-bench', created: 0, model: 'bench' });
    const acc = new StreamAccumulator();
    const started = performance.now();
    let batch = encoder.role();
    let inBatch = 0;
    let tokens = 0;
    const reasoningTokens = Math.round(tokensPerSample * reasoningShare);
    const flush = () => {
      const delta = acc.pushText(batch, performance.now());
      if (delta.contentDelta || delta.reasoningDelta) {
        options.onProgress?.({ contentDelta: delta.contentDelta, reasoningDelta: delta.reasoningDelta, tokens: delta.tokens });
      }
      batch = '';
      inBatch = 0;
    };
    outer: for (;;) {
      for (const token of tokenize(text.nextBlock())) {
        batch += tokens < reasoningTokens ? encoder.reasoning(token) : encoder.content(token);
        if (++inBatch >= EVENTS_PER_PUSH) flush();
        if (++tokens >= tokensPerSample) break outer;
      }
    }
    batch +=
      encoder.finish('length') +
      encoder.usage({ prompt_tokens: 20, completion_tokens: tokens, total_tokens: tokens + 20 }) +
      encoder.done();
    flush();
    acc.end(performance.now());
    const r = acc.result();
    const ended = performance.now();
    const sec = (ms: number | null) => (ms === null ? null : (ms - started) / 1000);
    return {
      content: r.content,
      reasoning: r.reasoning,
      finishReason: r.finishReason,
      stopReason: r.stopReason,
      outputTokens: r.outputTokens,
      outputTokensSource: r.outputTokensSource,
      promptTokens: r.promptTokens,
      ttftSeconds: sec(r.firstTokenAtMs),
      ttfcSeconds: sec(r.firstContentAtMs),
      durationSeconds: (ended - started) / 1000,
      chunks: r.chunks,
      maxGapSeconds: r.maxGapMs / 1000,
      gapsSeconds: [],
      bytes: r.bytes,
      endedCleanly: r.endedCleanly,
      httpStatus: 200,
      error: null,
    };
  };
}
