import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { HttpFn } from '../client/httpExchange.js';
import type { ChatRequest, StreamProgress, StreamResult, StreamTimeouts } from '../client/streamTypes.js';
import type { ProbeKind } from '../config/probeKindTypes.js';
import type { ProbeConfig, TargetConfig } from '../config/types.js';
import type { FindingKind } from '../core/finding.js';
import type { RequestShape } from './buildChatRequest.js';
import type { CheckResult } from './conformance/checkTypes.js';
import type { ProbeKindFindingKind, RunResult, SampleResult } from './probeTypes.js';

/**
 * The contract between the dispatcher (runProbe.ts) and the probe kinds: what a kind is
 * (ProbeKindModule) and what running a probe needs (ProbeDeps, the stream function, the observer
 * hooks). Types only, and it imports nothing of the kinds, so the kinds and the dispatcher both
 * depend on it and not on each other.
 */

/**
 * A probe kind: one module of kinds/ exports one of these, and the map of kinds/index.ts lists it.
 * Its outcome type and its finding kinds' names it declares in the same module, into
 * ProbeKindSamples of probeTypes.ts; its config keys live in src/config (a lower floor).
 */
export interface ProbeKindModule<K extends ProbeKind = ProbeKind> {
  /** The `kind` of the probes it runs. */
  name: K;
  /**
   * The sample-level finding kinds its samples can carry, in the order the docs list them: each
   * a value of the `kind` label of coherency_degeneration_reasons_total, a fixed set.
   */
  findingKinds: readonly ProbeKindFindingKind[];
  /** Samples of a run of this probe: the run's default deadline is measured by them (runDeadline.ts). */
  samplesPerRun(probe: ProbeConfig): number;
  /** Every sample of one probe against one target. Never throws: failures become `error` samples. */
  run(target: TargetConfig, probe: ProbeConfig, deps: ProbeDeps, trigger: RunResult['trigger']): Promise<RunResult>;
}

export interface StreamOptions {
  timeouts: StreamTimeouts;
  /** Byte cap on the response (responseByteCap of the probe). */
  maxBytes?: number;
  signal?: AbortSignal;
  /** The index in its run of the sample this request belongs to (for observers that wrap the stream). */
  sample?: number;
  dispatcher?: Dispatcher;
  onProgress?: (p: StreamProgress) => void;
  /** Credentials redacted besides those the request carries: the other secrets of the configuration (configSecrets.ts). */
  secrets?: readonly string[];
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

export interface ProbeDeps {
  stream: StreamFn;
  /** Plain timed requests (conformance probes); the daemon passes httpExchange. Absent: a conformance run is an internal error. */
  http?: HttpFn;
  env: Record<string, string | undefined>;
  /** Wall clock in ms since the epoch. */
  now: () => number;
  logger: Logger;
  newId: () => string;
  /**
   * Every secret of the configuration (configSecrets.ts), redacted from what this target sends
   * back besides its own: targets behind one origin can echo each other's keys. Absent: the
   * target's own only.
   */
  secrets?: () => Promise<readonly string[]>;
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
