import { SAMPLE_VERDICTS, type RunResult, type SampleResult } from '../probe/probeTypes.js';
import { findingKinds } from '../probe/judgeSample.js';
import type { MetricsDetail } from '../config/types.js';
import type { Metrics } from './createMetrics.js';
import { recordConformanceSample } from './conformanceMetrics.js';
import { recordKindSample } from './kindMetrics.js';

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

/**
 * Creates the verdict counters of a target/probe at 0, so that increase() and rate()
 * see the very first fail or error (a series born at 1 has no increase).
 */
export function initSeries(metrics: Metrics, target: string, probe: string, temperatures: readonly number[] | null = null): void {
  for (const verdict of SAMPLE_VERDICTS) {
    if (!temperatures) metrics.runs.inc({ target, probe, verdict }, 0);
    else for (const t of temperatures) metrics.runs.inc({ target, probe, verdict, temperature: String(t) }, 0);
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
