import { Counter, Gauge, type Registry } from 'prom-client';
import { displayedServer, displayedVersion, type Fingerprint } from '../fingerprint/normalizeFingerprint.js';
import type { Comparison, PeriodSummary } from '../fingerprint/changeComparison.js';

/**
 * The series of target fingerprints and of the before/after comparison. The fingerprint's
 * strings are labels of the one info series per target only (replaced on change); the
 * comparison's series exist per target × probe once its target changed, with `period` before or after.
 */

const TPP = ['target', 'probe', 'period'] as const;
/** A label value longer than this is cut (a model path can be long). */
export const INFO_LABEL_MAX_CHARS = 100;

export function createChangeMetrics(registers: Registry[]) {
  return {
    targetInfo: new Gauge({
      name: 'coherency_target_info',
      help: 'Always 1, one series per target: what the target says it is (server software, its version, the model revision or checkpoint, served_model: the model its answers or /models named) beside model, the model configured (sent in each request); "unknown" where it said nothing. The series is replaced when the fingerprint changes.',
      labelNames: ['target', 'server', 'version', 'model_revision', 'model', 'served_model'] as const,
      registers,
    }),
    targetChanges: new Counter({
      name: 'coherency_target_changes_total',
      help: "Changes of the target's fingerprint seen since start (server, version, model, model revision, system_fingerprint, engine settings or version headers). Any increase is a deploy: compare quality before and after it (coherency_change_failed_ratio and the other before/after gauges).",
      labelNames: ['target'] as const,
      registers,
    }),
    lastChange: new Gauge({
      name: 'coherency_target_last_change_timestamp_seconds',
      help: "Unix time at which the target's fingerprint last changed; absent until a change since start.",
      labelNames: ['target'] as const,
      registers,
    }),
    changeSamples: new Gauge({
      name: 'coherency_change_samples',
      help: "Samples compared across the target's last change, by period: before (the last samples before it) or after (the samples since, the newest 50). Alerts wait for a few after.",
      labelNames: TPP,
      registers,
    }),
    changeFailedRatio: new Gauge({
      name: 'coherency_change_failed_ratio',
      help: 'Share of failed (degenerate) samples before and after the last change of the target, 0-1. HIGHER is worse; errors are not counted as failed.',
      labelNames: TPP,
      registers,
    }),
    changeLoopRatio: new Gauge({
      name: 'coherency_change_loop_ratio',
      help: 'Share of samples with a loop, flood or stutter finding before and after the last change of the target, 0-1. HIGHER is worse.',
      labelNames: TPP,
      registers,
    }),
    changeOnsetTokens: new Gauge({
      name: 'coherency_change_collapse_onset_tokens',
      help: 'Median output token at which a loop starts, over the samples with one, before and after the last change. LOWER is worse (the output breaks sooner); absent without such samples.',
      labelNames: TPP,
      registers,
    }),
    changeRecallRatio: new Gauge({
      name: 'coherency_change_recall_ratio',
      help: 'Mean share of planted facts recalled before and after the last change, 0-1 (recall probes only). LOWER is worse.',
      labelNames: TPP,
      registers,
    }),
    changeConformanceFailedRatio: new Gauge({
      name: 'coherency_change_conformance_failed_ratio',
      help: 'Mean share of failed checks per conformance sample before and after the last change, 0-1 (conformance probes only). HIGHER is worse.',
      labelNames: TPP,
      registers,
    }),
    changeTtft: new Gauge({
      name: 'coherency_change_time_to_first_token_seconds',
      help: 'Median seconds to the first token before and after the last change. LOWER is faster.',
      labelNames: TPP,
      registers,
    }),
    changeItl: new Gauge({
      name: 'coherency_change_inter_token_latency_seconds',
      help: 'Median of the mean gap between output tokens per sample ((duration - TTFT) / (tokens - 1)) before and after the last change. LOWER is faster.',
      labelNames: TPP,
      registers,
    }),
  };
}

export type ChangeMetrics = ReturnType<typeof createChangeMetrics>;

const label = (v: string | null): string => (v === null ? 'unknown' : v.slice(0, INFO_LABEL_MAX_CHARS));

/**
 * The info labels of a fingerprint and of the target's configured `model` (null: not known,
 * "unknown"). `served_model` is the fingerprint's model, already redacted of the target's
 * secrets like every string of it; both are cut as the other labels are, so one target is one
 * series of bounded size whatever a server answers.
 */
export function infoLabels(target: string, fp: Fingerprint, model: string | null = null) {
  return {
    target,
    server: label(displayedServer(fp)),
    version: label(displayedVersion(fp)),
    model_revision: label(fp.modelRevision),
    model: label(model),
    served_model: label(fp.model),
  };
}

/**
 * Sets the target's info series to `fp`, removing the one of `previous` when its labels differ;
 * a change (changed: true) counts and is stamped. `model`: the target's configured model (the
 * same for `previous`: a reload that changes it forgets the target's identity first).
 */
export function recordFingerprint(
  metrics: ChangeMetrics,
  target: string,
  fp: Fingerprint,
  previous: Fingerprint | null,
  changed: boolean,
  nowSeconds: number,
  model: string | null = null,
): void {
  const labels = infoLabels(target, fp, model);
  if (previous) {
    const old = infoLabels(target, previous, model);
    if (JSON.stringify(old) !== JSON.stringify(labels)) metrics.targetInfo.remove(old);
  }
  metrics.targetInfo.set(labels, 1);
  if (changed) {
    metrics.targetChanges.inc({ target });
    metrics.lastChange.set({ target }, nowSeconds);
  }
}

const PERIOD_GAUGES = [
  ['changeSamples', (s: PeriodSummary) => s.samples],
  ['changeFailedRatio', (s: PeriodSummary) => s.failedRatio],
  ['changeLoopRatio', (s: PeriodSummary) => s.loopRatio],
  ['changeOnsetTokens', (s: PeriodSummary) => s.onsetTokens],
  ['changeRecallRatio', (s: PeriodSummary) => s.recallRatio],
  ['changeConformanceFailedRatio', (s: PeriodSummary) => s.conformanceFailedRatio],
  ['changeTtft', (s: PeriodSummary) => s.ttftSeconds],
  ['changeItl', (s: PeriodSummary) => s.itlSeconds],
] as const satisfies ReadonlyArray<readonly [keyof ChangeMetrics, (s: PeriodSummary) => number | null]>;

/** The comparison's figures; a figure no sample of a period had is removed rather than left at an old value. */
export function recordComparison(metrics: ChangeMetrics, c: Comparison): void {
  for (const period of ['before', 'after'] as const) {
    const labels = { target: c.target, probe: c.probe, period };
    for (const [name, value] of PERIOD_GAUGES) {
      const v = value(c[period]);
      if (v === null) metrics[name].remove(labels);
      else metrics[name].set(labels, v);
    }
  }
}

/** Removes a pair's comparison series (its pair was removed by a reload). */
export function forgetComparisonSeries(metrics: ChangeMetrics, target: string, probe: string): void {
  for (const period of ['before', 'after'] as const) for (const [name] of PERIOD_GAUGES) metrics[name].remove({ target, probe, period });
}
