/**
 * The GenAI client metrics of the semantic conventions, moved by each streamed request: its
 * duration, its tokens in and out, the time to its first chunk of output and the time between
 * output chunks. Their attributes are the target's (targetAttributes) and error.type: a
 * bounded set, whatever the probes send.
 */
import type { Histogram, Meter } from '@opentelemetry/api';
import type { StreamResult } from '../client/streamTypes.js';
import { type Attributes, targetAttributes } from './evaluationEvents.js';
import type { RunContext } from './evaluationSink.js';

/**
 * Seconds: the conventions' boundaries (0.01 doubling to 81.92), then on to 2621.44 (44 minutes):
 * a long probe streams for minutes, and the conventions' last bucket would hold all of it.
 */
export const SECONDS_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92, 163.84, 327.68, 655.36, 1310.72, 2621.44,
];

/** Tokens: the conventions' boundaries (1 to 4^13). */
export const TOKEN_BUCKETS: readonly number[] = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

export const CLIENT_METRICS = {
  duration: 'gen_ai.client.operation.duration',
  tokens: 'gen_ai.client.token.usage',
  firstChunk: 'gen_ai.client.operation.time_to_first_chunk',
  perChunk: 'gen_ai.client.operation.time_per_output_chunk',
} as const;

export interface ClientMetrics {
  record(target: RunContext['target'], result: StreamResult): void;
}

export function createClientMetrics(meter: Meter): ClientMetrics {
  const seconds = (name: string, description: string): Histogram =>
    meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: [...SECONDS_BUCKETS] } });
  const duration = seconds(CLIENT_METRICS.duration, 'GenAI operation duration');
  const firstChunk = seconds(CLIENT_METRICS.firstChunk, 'Time to receive the first chunk of output of a stream');
  const perChunk = seconds(CLIENT_METRICS.perChunk, 'Time between output chunks of a stream, after the first');
  const tokens = meter.createHistogram(CLIENT_METRICS.tokens, {
    unit: '{token}',
    description: 'Number of input and output tokens used',
    advice: { explicitBucketBoundaries: [...TOKEN_BUCKETS] },
  });
  return {
    record(target, result) {
      const attrs: Attributes = targetAttributes(target);
      duration.record(result.durationSeconds, result.error ? { ...attrs, 'error.type': result.error.type } : attrs);
      // what the server counted (usage) where it said, else the client's count; nothing of a request that got no answer
      if (result.promptTokens !== null && result.promptTokens !== undefined)
        tokens.record(result.promptTokens, { ...attrs, 'gen_ai.token.type': 'input' });
      if (result.httpStatus !== null && result.outputTokens > 0)
        tokens.record(result.outputTokens, { ...attrs, 'gen_ai.token.type': 'output' });
      if (result.ttftSeconds !== null) firstChunk.record(result.ttftSeconds, attrs);
      for (const gap of result.gapsSeconds ?? []) perChunk.record(gap, attrs);
    },
  };
}
