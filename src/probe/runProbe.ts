import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { HttpFn } from '../client/httpExchange.js';
import type { CheckResult } from './conformance/checkTypes.js';
import type { FindingKind } from '../core/finding.js';
import type { ChatRequest, StreamProgress, StreamResult, StreamTimeouts } from '../client/streamTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import type { RequestShape } from './buildChatRequest.js';
import type { RunResult, SampleResult } from './probeTypes.js';
import { isRunDeadline } from '../client/runDeadline.js';
import { PROBE_KINDS } from './kinds/index.js';
import { runDeadlineSeconds, startRunDeadline } from './runDeadline.js';

/**
 * What running a probe needs (ProbeDeps, the stream function, the observer hooks) and runProbe,
 * which picks the function of the probe's kind. The generation kind and the sample runner live
 * in generationProbe.ts, the other kinds in kinds/; they import only types from here.
 */

export interface StreamOptions {
  timeouts: StreamTimeouts;
  /** Byte cap on the response (responseByteCap of the probe). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** The index in its run of the sample this request belongs to (for observers that wrap the stream). */
  sample?: number;
  dispatcher?: Dispatcher;
  onProgress?: (p: StreamProgress) => void;
}

/** The streaming client, passed in so tests and the CLI can swap it (daemon passes streamChat). */
export type StreamFn = (request: ChatRequest, options: StreamOptions) => Promise<StreamResult>;

/** Hooks for live figures (in-flight gauge, inter-token gaps); all optional. */
export interface ProbeObserver {
  /** `index`: the sample's index in its run (samples of a contamination probe start out of order). */
  sampleStarted?(target: string, probe: string, index: number): void;
  sampleFinished?(target: string, probe: string, sample: SampleResult): void;
  /** Every gap between two token-carrying chunks of a finished sample, in seconds, at once. */
  tokenGaps?(target: string, probe: string, seconds: readonly number[]): void;
  /**
   * What the live check of a running sample sees, when it changes: a loop or flood it suspects
   * (not yet certain) or the certain collapse that closed the stream. With this hook the live
   * check runs even on probes with abortOnCollapse off (it then never aborts).
   */
  sampleLive?(target: string, probe: string, live: LiveState): void;
  /** A conformance probe finished one of its checks (progress views). */
  checkDone?(target: string, probe: string, check: CheckResult): void;
}

/** A running sample's live state, for progress views. */
export interface LiveState {
  /** suspected: not yet certain; certain: will not recover, but the probe does not abort; aborted: the stream was closed. */
  state: 'suspected' | 'certain' | 'aborted';
  /** The sample's index in its run. */
  sample: number;
  kind: FindingKind;
  channel: 'content' | 'reasoning';
  /** Output token where it starts (content only; null in the reasoning). */
  atToken: number | null;
}

export { adaptToRefusal, apiKeyOf, buildChatRequest, effectiveTimeouts, shapeOf, type RequestShape } from './buildChatRequest.js';
export { findingKinds, judgeSample } from './judgeSample.js';

export interface ProbeDeps {
  stream: StreamFn;
  /** Plain timed requests (conformance probes); the daemon passes httpExchange. Absent: a conformance run is an internal error. */
  http?: HttpFn;
  env: Record<string, string | undefined>;
  /** Wall clock in ms since the epoch. */
  now: () => number;
  logger: Logger;
  newId: () => string;
  /** Reads an apiKeyFile at each run, so a rotated mounted secret applies without a restart. */
  readKeyFile?: (path: string) => Promise<string>;
  /** The connection pool of a target with its own TLS settings (undefined: the default one). */
  dispatcherFor?: (target: TargetConfig) => Dispatcher | undefined;
  /** Aborts every in-flight sample (shutdown). */
  signal?: AbortSignal;
  observer?: ProbeObserver;
  /** Request shapes learned from servers' refusals, by target name; kept by the caller across runs. */
  shapes?: Map<string, RequestShape>;
  /**
   * The global limit on samples in flight (server.maxConcurrentSamples): each sample waits
   * for a slot before its request and gives it back when it ends. Absent: no limit.
   */
  slots?: { acquire(): Promise<() => void> };
}

/**
 * Runs one probe against one target with the function of its kind (PROBE_KINDS: generation,
 * recall, contamination, conformance), within the run's deadline (runDeadline.ts): the kind
 * sees it as its signal, aborted with a RunDeadlineAbort. Never throws: failures become `error` samples.
 */
export async function runProbe(
  target: TargetConfig,
  probe: ProbeConfig,
  deps: ProbeDeps,
  trigger: RunResult['trigger'] = 'schedule',
): Promise<RunResult> {
  const seconds = runDeadlineSeconds(target, probe);
  const deadline = startRunDeadline(seconds, deps.signal);
  try {
    const run = await PROBE_KINDS[probe.kind ?? 'generation'](target, probe, { ...deps, signal: deadline.signal }, trigger);
    // A deadline that passed while the run waited for a slot cut no request: the last sample says why the rest is missing.
    const last = run.samples.at(-1);
    if (isRunDeadline(deadline.signal.reason) && last && !run.samples.some((x) => x.error?.type === 'timeout_run')) {
      last.notes.push(`the run passed its deadline of ${seconds} s (timeouts.runSeconds) before every sample was sent`);
    }
    return run;
  } finally {
    deadline.clear();
  }
}

export {
  ABORT_CHECK_COST_FACTOR,
  ABORT_CHECK_EVERY_CHARS,
  ABORT_CHECK_MAX_CHARS,
  ABORT_CHECK_MAX_INTERVAL_MS,
  ABORT_CHECK_MIN_INTERVAL_MS,
  PROGRESS_LOG_EVERY_MS,
  runGenerationProbe,
  runSample,
  samplePlan,
} from './generationProbe.js';
