import { SAMPLE_VERDICTS, type RunResult, type SampleResult } from '../probe/probeTypes.js';
import { findingKinds } from '../probe/judgeSample.js';
import type { MetricsDetail, ProbeConfig } from '../config/types.js';
import type { VerdictWindow } from '../state/verdictWindow.js';
import type { Metrics } from './createMetrics.js';
import { recordConformanceSample } from './conformanceMetrics.js';
import { recordKindSample } from './kindMetrics.js';
import type { RunIdentity } from '../fingerprint/targetChanges.js';
import type { Fingerprint } from '../fingerprint/normalizeFingerprint.js';
import { forgetComparisonSeries, infoLabels, recordComparison, recordFingerprint } from './changeMetrics.js';

const CHANNELS = ['content', 'reasoning', 'combined'] as const;
type Channel = (typeof CHANNELS)[number];

/** The `temperature` label of a sample of a probe that sweeps temperatures; {} otherwise (no label). */
export function temperatureLabel(swept: boolean, sample: Pick<SampleResult, 'temperature'>): { temperature?: string } {
  return swept && sample.temperature !== undefined ? { temperature: String(sample.temperature) } : {};
}

/**
 * Everything a finished sample moves: counters, histograms and last-value gauges. `swept`: the
 * probe sweeps temperatures, so the run counter, quality histograms and logprob gauges get the
 * sample's temperature as a label.
 */
export function recordSample(metrics: Metrics, target: string, probe: string, sample: SampleResult, swept = false): void {
  const tp = { target, probe };
  const temp = temperatureLabel(swept, sample);
  metrics.runs.inc({ ...tp, ...temp, verdict: sample.verdict });
  metrics.samples.inc({ ...tp, ...temp, verdict: sample.verdict });
  if (sample.error) metrics.errors.inc({ ...tp, type: sample.error.type });
  if (sample.aborted) {
    metrics.aborted.inc(tp);
    metrics.tokensSaved.inc(tp, sample.tokensSaved);
  }
  if (sample.verdict === 'warn' || sample.verdict === 'fail') {
    // "inconclusive" (too short to judge, or all budget spent reasoning) is no degeneration:
    // it shows in runs_total{verdict="warn"} only.
    for (const kind of findingKinds(sample.findings)) if (kind !== 'inconclusive') metrics.reasons.inc({ ...tp, kind });
  }
  recordKindSample(metrics, target, probe, sample);
  metrics.duration.observe(tp, sample.durationSeconds);
  // a checklist has no output of its own to measure: its checks have their own series
  if (sample.outcome?.kind === 'conformance') {
    recordConformanceSample(metrics, target, probe, sample);
    return;
  }
  // An errored sample (a timeout after 5 tokens, a cut stream) says nothing about how the
  // model writes: it moves only the run, error and duration series, never the quality ones.
  if (sample.verdict === 'error') return;
  if (sample.ttftSeconds !== null) metrics.ttft.observe(tp, sample.ttftSeconds);
  if (sample.ttfcSeconds !== null) metrics.ttfc?.observe(tp, sample.ttfcSeconds);
  if (sample.ttftSeconds !== null) metrics.largestInterTokenGap.observe(tp, sample.maxGapSeconds);
  metrics.outputTokens.observe(tp, sample.outputTokens);
  if (sample.tokensPerSecond !== null) metrics.tokensPerSecond.observe(tp, sample.tokensPerSecond);
  if (sample.adherence?.coverage != null) metrics.promptCoverage.set({ ...tp, ...temp }, sample.adherence.coverage);
  if (sample.logprobs) {
    metrics.tailLogprobMean.set({ ...tp, ...temp }, sample.logprobs.tailMeanLogprob);
    metrics.tailNearCertain.set({ ...tp, ...temp }, sample.logprobs.tailNearCertainRatio);
  } else {
    // no logprobs this time (the server stopped sending them): no stale figure
    metrics.tailLogprobMean.remove({ ...tp, ...temp });
    metrics.tailNearCertain.remove({ ...tp, ...temp });
  }
  if (!sample.metrics) return;
  const exported = exportedChannels(metrics.detail, sample.metrics.reasoning !== null);
  for (const channel of CHANNELS) {
    const m = sample.metrics[channel];
    const labels = { ...tp, channel };
    if (!m || !exported.includes(channel)) {
      // No reasoning in this sample: the reasoning gauges must not show the previous one's.
      for (const d of metrics.degeneration) d.last.remove(labels);
      continue;
    }
    // Under basic, a quality histogram costs its buckets once, for the answer itself.
    const observe = metrics.detail === 'full' || channel === 'content';
    for (const d of metrics.degeneration) {
      const v = d.spec.value(m);
      if (v === null || !Number.isFinite(v)) {
        d.last.remove(labels); // the last sample had no such figure (e.g. no collapse): no stale value
        continue;
      }
      if (observe) d.histogram?.observe({ ...labels, ...temp }, v);
      d.last.set(labels, v);
    }
  }
}

/**
 * The channels whose quality series a sample moves. Without reasoning, `combined` is the content
 * itself and `reasoning` does not exist: only `content`. With reasoning, basic adds `reasoning`
 * (a thinking loop is how reasoning models collapse most often), full adds `combined` as well.
 */
export function exportedChannels(detail: MetricsDetail, hasReasoning: boolean): readonly Channel[] {
  if (!hasReasoning) return ['content'];
  return detail === 'full' ? CHANNELS : ['content', 'reasoning'];
}

/** A sample of a run took its slot and is streaming. */
export function recordSampleStarted(metrics: Metrics): void {
  metrics.inFlight.inc();
}

/**
 * A sample ended: out of flight, then (when `window` is given: its pair is still configured)
 * every series it moves, and its verdict into the pair's degeneration window, whose ratio is
 * exported. A sweep keeps one window per temperature: the ratios are what it compares.
 */
export function recordSampleFinished(
  metrics: Metrics,
  window: VerdictWindow | null,
  target: string,
  probe: Pick<ProbeConfig, 'name' | 'temperatures'>,
  sample: SampleResult,
): void {
  metrics.inFlight.dec();
  if (!window) return;
  const swept = probe.temperatures !== null;
  recordSample(metrics, target, probe.name, sample, swept);
  // a conformance checklist is not output that degenerates: it has its own series and alert
  if (sample.outcome?.kind === 'conformance') return;
  const temp = temperatureLabel(swept, sample);
  const key = `${target}\u0000${probe.name}${temp.temperature === undefined ? '' : `\u0000${temp.temperature}`}`;
  const ratio = window.add(key, sample.verdict);
  if (ratio !== null) metrics.degenerationRatio.set({ target, probe: probe.name, ...temp }, ratio);
}

/** The gaps between a sample's output tokens, into the inter-token latency histogram. */
export function recordTokenGaps(metrics: Metrics, target: string, probe: string, gaps: readonly number[]): void {
  // one label lookup per sample, not per token (a 200k-token sample has 200k gaps)
  const histogram = metrics.interTokenLatency.labels({ target, probe });
  for (const seconds of gaps) histogram.observe(seconds);
}

/** The per-run gauges, set once every sample of the run is recorded. */
export function recordRunEnd(metrics: Metrics, run: RunResult, finishedAtSeconds: number): void {
  const tp = { target: run.target, probe: run.probe };
  const success = run.samples.length > 0 && run.samples.every((s) => s.verdict === 'ok');
  metrics.success.set(tp, success ? 1 : 0);
  if (success) metrics.consecutiveUnsuccessful.set(tp, 0);
  else metrics.consecutiveUnsuccessful.inc(tp);
  // What lets CoherencyDegenerationRatioHigh clear after two healthy runs whatever the schedule:
  // a run that only errored says nothing about the output, so it neither resets nor advances it.
  const analysed = run.samples.filter((s) => s.verdict !== 'error');
  if (analysed.some((s) => s.verdict === 'fail')) metrics.runsSinceFail.set(tp, 0);
  else if (analysed.length > 0) metrics.runsSinceFail.inc(tp);
  metrics.lastRun.set(tp, finishedAtSeconds);
}

/** What a run told about its target: its info series, a change counted and stamped, the comparisons of its pairs. */
export function recordRunIdentity(metrics: Metrics, target: string, identity: RunIdentity): void {
  const { seen, atMs } = identity;
  if (seen && atMs !== undefined) {
    const previous = seen.kind === 'first' ? null : seen.kind === 'changed' ? seen.previous : seen.known;
    recordFingerprint(metrics, target, seen.known, previous, seen.kind === 'changed', atMs / 1000, identity.model ?? null);
  }
  for (const c of identity.comparisons) recordComparison(metrics, c);
}

/** Removes the series of what was known of a target's identity (TargetChanges.forgetTarget's answer). */
export function forgetTargetIdentity(
  metrics: Metrics,
  target: string,
  forgotten: { known: Fingerprint | null; model?: string | null; probes: readonly string[] },
): void {
  if (forgotten.known) metrics.targetInfo.remove(infoLabels(target, forgotten.known, forgotten.model ?? null));
  for (const probe of forgotten.probes) forgetComparisonSeries(metrics, target, probe);
}

/**
 * Creates the verdict counters of a target/probe at 0, so that increase() and rate()
 * see the very first fail or error (a series born at 1 has no increase).
 */
export function initSeries(metrics: Metrics, target: string, probe: string, temperatures: readonly number[] | null = null): void {
  for (const verdict of SAMPLE_VERDICTS) {
    if (!temperatures) metrics.runs.inc({ target, probe, verdict }, 0);
    else for (const t of temperatures) metrics.runs.inc({ target, probe, verdict, temperature: String(t) }, 0);
    for (const t of temperatures ?? [null])
      metrics.samples.inc({ target, probe, verdict, ...(t === null ? {} : { temperature: String(t) }) }, 0);
  }
  metrics.aborted.inc({ target, probe }, 0);
  metrics.tokensSaved.inc({ target, probe }, 0);
}

interface RemovableMetric {
  name: string;
  get(): Promise<{ values: { labels: Record<string, string | number | undefined> }[] }>;
  remove(labels: Record<string, string | number>): void;
}

/** Removes every series of a target (and optionally only one of its probes), e.g. after a reload removed it. */
export async function forgetSeries(metrics: Metrics, target: string, probe?: string): Promise<void> {
  for (const metric of metrics.registry.getMetricsAsArray() as unknown as RemovableMetric[]) {
    if (!metric.name.startsWith('coherency_')) continue;
    const snapshot = await metric.get();
    for (const value of snapshot.values) {
      const labels = value.labels as Record<string, string | number>;
      if (labels['target'] !== target) continue;
      if (probe !== undefined && labels['probe'] !== probe) continue;
      // Histograms report _bucket samples with an extra `le`; removal takes the metric's own labels.
      const { le: _le, ...own } = labels;
      metric.remove(own);
    }
  }
}
