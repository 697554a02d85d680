import type { StreamResult } from '../client/streamTypes.js';
import type { TargetConfig } from '../config/types.js';
import type { RunResult } from '../probe/probeTypes.js';

/** What a run's events say besides the run itself: the probe's kind, and the model the answers named. */
export interface RunContext {
  target: Pick<TargetConfig, 'name' | 'baseUrl' | 'model' | 'api'>;
  /** The probe's kind (generation when the config names none). */
  probeKind: string;
  /** The `model` the target's answers named in this run; null when none did. */
  responseModel: string | null;
}

/**
 * Where a finished run's verdicts and each request's figures go besides Prometheus. The probe
 * service calls it and goes on at once: an implementation queues and never blocks, throws or
 * waits on the network (a collector that is down must not slow a probe).
 */
export interface EvaluationSink {
  /** A run ended: one evaluation event per sample, and one per finding of a sample. */
  record(run: RunResult, context: RunContext): void;
  /** One streamed request ended (the client metrics). */
  request(target: RunContext['target'], result: StreamResult): void;
  /** Sends what is waiting, within the export timeout, and stops; never rejects. */
  close(): Promise<void>;
}

/** Export off: nothing is kept, nothing is sent. */
export const NO_EVALUATIONS: EvaluationSink = Object.freeze({
  record() {},
  request() {},
  close: async () => {},
});
