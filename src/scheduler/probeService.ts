import type { Logger } from 'pino';
import type { Config, ProbeConfig, TargetConfig } from '../config/types.js';
import type { Metrics } from '../metrics/createMetrics.js';
import {
  forgetTargetIdentity,
  initSeries,
  recordRunEnd,
  recordRunIdentity,
  recordSampleFinished,
  recordSampleStarted,
  recordTokenGaps,
} from '../metrics/recordRun.js';
import { initKindSeries } from '../metrics/kindMetrics.js';
import type { RunResult } from '../probe/probeTypes.js';
import type { RequestShape } from '../probe/buildChatRequest.js';
import type { ProbeDeps } from '../probe/probeDeps.js';
import { runProbe } from '../probe/runProbe.js';
import type { RunHistory } from '../state/runHistory.js';
import { VerdictWindow } from '../state/verdictWindow.js';
import { SampleSlots } from './sampleSlots.js';
import type { Dispatcher } from 'undici';
import type { ServedBy } from '../client/streamTypes.js';
import type { FingerprintCache } from '../fingerprint/fingerprintCache.js';
import { identityTargetOf } from '../probe/identityTargetOf.js';
import type { Comparison } from '../fingerprint/changeComparison.js';
import { TargetChanges } from '../fingerprint/targetChanges.js';
import type { TargetFingerprints } from '../fingerprint/targetFingerprints.js';
import { sampleFigures } from '../probe/sampleFigures.js';
import type { EvaluationSink } from '../otel/evaluationSink.js';

export type ProbeLookupCode = 'UNKNOWN_TARGET' | 'UNKNOWN_PROBE' | 'PROBE_NOT_ON_TARGET' | 'ALREADY_RUNNING';

export class ProbeLookupError extends Error {
  constructor(
    readonly code: ProbeLookupCode,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeLookupError';
  }
}

export interface ProbeServiceDeps {
  config: Config;
  probe: Omit<ProbeDeps, 'observer'>;
  metrics: Metrics;
  history: RunHistory;
  logger: Logger;
  /** Reads each target's fingerprint after its runs; absent: runs carry none and no change is seen. */
  fingerprints?: FingerprintCache<Dispatcher>;
  /** Where each run's verdicts and each request's figures go besides /metrics (OpenTelemetry); absent: nowhere. */
  evaluations?: EvaluationSink;
}

export const runKey = (target: string, probe: string) => `${target}\u0000${probe}`;

/**
 * Runs probes for the scheduler and for /probe: one run per target+probe at a time,
 * results into metrics and history. The only place that moves probe metrics.
 */
export class ProbeService {
  private config: Config;
  private readonly inFlight = new Map<string, Promise<RunResult>>();
  /** Pairs that have had a run since start, scheduled or manual. */
  private readonly everRun = new Set<string>();
  /** Runs in flight that have started a sample (the others are waiting for a slot). */
  private readonly started = new Set<string>();
  /** The global limit on samples in flight; every run's samples, scheduled or manual, take a slot. */
  private readonly slots: SampleSlots;
  private readonly window: VerdictWindow;
  /** target/probe pairs of the current config: a run finishing after a reload removed its pair records nothing. */
  private configured = new Set<string>();

  /** Each target's known fingerprint, and the figures before and after its last change. */
  private readonly changes: TargetChanges<Dispatcher>;

  /** Request shapes the targets' servers asked for (max_completion_tokens, no temperature), kept across runs. */
  private readonly shapes = new Map<string, RequestShape>();

  constructor(private readonly deps: ProbeServiceDeps) {
    this.config = deps.config;
    this.window = new VerdictWindow(deps.config.metrics.degenerationWindow);
    this.slots = new SampleSlots(deps.config.server.maxConcurrentSamples);
    this.changes = new TargetChanges(deps.fingerprints ?? null, deps.logger, deps.probe.now);
    this.initSeries();
  }

  /** Creates the series of every configured pair (at 0) that do not exist yet; a reload calls it again after forgetting some. */
  initSeries(): void {
    this.configured = new Set(this.config.targets.flatMap((t) => t.probes.map((p) => runKey(t.name, p))));
    const sweeps = new Map(this.config.probes.map((p) => [p.name, p.temperatures]));
    for (const t of this.config.targets) for (const p of t.probes) initSeries(this.deps.metrics, t.name, p, sweeps.get(p) ?? null);
    initKindSeries(this.deps.metrics, this.config);
    // at 0 from the start, so that increase() and changes() see the first change
    for (const t of this.config.targets) this.deps.metrics.targetChanges.inc({ target: t.name }, 0);
  }

  get currentConfig(): Config {
    return this.config;
  }

  /** Swaps the config (reload). Runs in flight finish with the config they started with. */
  setConfig(config: Config): void {
    this.config = config;
    this.window.resize(config.metrics.degenerationWindow);
    this.slots.setLimit(config.server.maxConcurrentSamples);
    this.initSeries();
  }

  /** Resolves a target+probe pair or throws a ProbeLookupError naming what is known. */
  resolve(targetName: string, probeName: string): { target: TargetConfig; probe: ProbeConfig } {
    const target = this.config.targets.find((t) => t.name === targetName);
    if (!target) {
      throw new ProbeLookupError(
        'UNKNOWN_TARGET',
        `unknown target "${targetName}" (known: ${this.config.targets.map((t) => t.name).join(', ')})`,
      );
    }
    const probe = this.config.probes.find((p) => p.name === probeName);
    if (!probe) {
      throw new ProbeLookupError(
        'UNKNOWN_PROBE',
        `unknown probe "${probeName}" (known: ${this.config.probes.map((p) => p.name).join(', ')})`,
      );
    }
    if (!target.probes.includes(probe.name)) {
      throw new ProbeLookupError(
        'PROBE_NOT_ON_TARGET',
        `target "${target.name}" does not run probe "${probe.name}" (it runs: ${target.probes.join(', ')})`,
      );
    }
    return { target, probe };
  }

  /** Whether the pair has had a run since start (or is having one): a first run at start-up is then not needed. */
  hasRun(targetName: string, probeName: string): boolean {
    return this.everRun.has(runKey(targetName, probeName));
  }

  isRunning(targetName: string, probeName: string): boolean {
    return this.inFlight.has(runKey(targetName, probeName));
  }

  /** True while the pair's run is in flight but none of its samples has had a slot yet. */
  isWaitingForSlot(targetName: string, probeName: string): boolean {
    const key = runKey(targetName, probeName);
    return this.inFlight.has(key) && !this.started.has(key);
  }

  get runningCount(): number {
    return this.inFlight.size;
  }

  /** Samples streaming now, and samples waiting for a slot of server.maxConcurrentSamples. */
  get sampleSlots(): { inUse: number; waiting: number; limit: number } {
    return { inUse: this.slots.inUse, waiting: this.slots.waiting, limit: this.slots.limit };
  }

  /** Starts a run; throws ProbeLookupError (ALREADY_RUNNING when the same target+probe is in flight). */
  run(targetName: string, probeName: string, trigger: RunResult['trigger']): Promise<RunResult> {
    const { target, probe } = this.resolve(targetName, probeName);
    const key = runKey(target.name, probe.name);
    if (this.inFlight.has(key)) {
      throw new ProbeLookupError('ALREADY_RUNNING', `probe "${probe.name}" on target "${target.name}" is already running`);
    }
    const promise = this.execute(target, probe, trigger).finally(() => {
      this.inFlight.delete(key);
      this.started.delete(key);
    });
    this.inFlight.set(key, promise);
    this.everRun.add(key);
    return promise;
  }

  /** Waits for every run in flight (used at shutdown, after the streams were aborted). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
  }

  private async execute(target: TargetConfig, probe: ProbeConfig, trigger: RunResult['trigger']): Promise<RunResult> {
    const { metrics } = this.deps;
    const windowKey = runKey(target.name, probe.name);
    // what the responses say served them: only answers that succeeded (a proxy's error page names the proxy)
    const served: ServedBy[] = [];
    const stream = this.deps.probe.stream;
    const evaluations = this.deps.evaluations;
    const run = await runProbe(
      target,
      probe,
      {
        ...this.deps.probe,
        stream: async (request, options) => {
          const result = await stream(request, options);
          evaluations?.request(target, result);
          if (result.served && result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300)
            served.push(result.served);
          return result;
        },
        shapes: this.shapes,
        slots: this.slots,
        observer: {
          sampleStarted: () => {
            this.started.add(windowKey);
            recordSampleStarted(metrics);
          },
          // a run whose pair a reload removed records nothing more
          sampleFinished: (t, _p, sample) =>
            recordSampleFinished(metrics, this.configured.has(windowKey) ? this.window : null, t, probe, sample),
          tokenGaps: (t, p, gaps) => {
            if (this.configured.has(windowKey)) recordTokenGaps(metrics, t, p, gaps);
          },
        },
      },
      trigger,
    );
    if (!this.configured.has(windowKey)) {
      this.deps.history.add(run);
      return run;
    }
    recordRunEnd(metrics, run, this.deps.probe.now() / 1000);
    const { probe: io } = this.deps;
    const dispatcher = io.dispatcherFor?.(target);
    const identity = await this.changes.afterRun(
      target,
      probe.name,
      run.samples.map((s) => sampleFigures(s)),
      io.signal?.aborted
        ? null
        : {
            identity: async () => identityTargetOf(target, io.env, io.readKeyFile, await io.secrets?.()),
            served,
            io: { ...(dispatcher ? { dispatcher } : {}), ...(io.signal ? { signal: io.signal } : {}) },
          },
    );
    recordRunIdentity(metrics, target.name, identity);
    const identified: RunResult = identity.fingerprint ? { ...run, fingerprint: identity.fingerprint } : run;
    this.deps.history.add(identified);
    evaluations?.record(identified, { target, probeKind: probe.kind ?? 'generation', responseModel: served.at(-1)?.model ?? null });
    return identified;
  }

  /** The comparison across the last change of the pair's target; null before any change. */
  comparison(targetName: string, probeName: string): Comparison | null {
    return this.changes.comparison(targetName, probeName);
  }

  /** Every pair's comparison across its target's last change. */
  allComparisons(): Comparison[] {
    return this.changes.all();
  }

  /** The target's known fingerprint and when it last changed (ms); null before its first run. */
  fingerprintOf(targetName: string): ReturnType<TargetFingerprints['get']> {
    return this.changes.fingerprintOf(targetName);
  }

  /** Forgets the degeneration window of a removed target/probe. */
  forget(targetName: string, probeName: string): void {
    this.window.delete(runKey(targetName, probeName));
    this.changes.forget(targetName, probeName);
  }

  /**
   * Forgets what is known of a target's identity and its comparisons, with their series: the
   * target was removed, or a reload pointed it at another baseUrl or model (what answers there
   * next is a first fingerprint, not a change).
   */
  forgetTarget(targetName: string): void {
    forgetTargetIdentity(this.deps.metrics, targetName, this.changes.forgetTarget(targetName));
  }
}
