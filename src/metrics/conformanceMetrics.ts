import { Counter, Gauge, type Registry } from 'prom-client';
import { CONFORMANCE_CHECKS } from '../config/probeKindTypes.js';
import { CHECK_REASONS } from '../probe/conformance/checkTypes.js';
import { outcomeOf, type SampleResult } from '../probe/probeTypes.js';

const TPC = ['target', 'probe', 'check'] as const;

/**
 * The series of conformance probes: one set per check (8 at most) and target x probe, so a
 * checklist costs about 20 series; `reason` is one of CHECK_REASONS, a fixed set.
 */
export function createConformanceMetrics(registers: Registry[]) {
  return {
    checkSuccess: new Gauge({
      name: 'coherency_conformance_check_success',
      help: "1 when the check passed in the conformance probe's last run, 0 when it failed; absent when it was skipped (it cannot apply to the target) or not run. LOWER is worse.",
      labelNames: TPC,
      registers,
    }),
    checkFailures: new Counter({
      name: 'coherency_conformance_check_failures_total',
      help: 'Conformance check failures, by check and reason (a fixed set: model_mismatch, buffered, usage_chunk_missing, index_collision, ...; docs/conformance.md says what each means). Any increase is a failure.',
      labelNames: ['target', 'probe', 'check', 'reason'] as const,
      registers,
    }),
    checkConsecutiveFailures: new Gauge({
      name: 'coherency_conformance_check_consecutive_failures',
      help: 'Runs in a row in which this conformance check failed; 0 after a run it passed; absent while it is skipped. HIGHER is worse; CoherencyConformanceFailing fires at 2.',
      labelNames: TPC,
      registers,
    }),
    checkFailureInfo: new Gauge({
      name: 'coherency_conformance_check_failure_info',
      help: "Always 1, while the check failed in the conformance probe's last run: `reason` says why (absent once it passes). The dashboard's checklist reads the reason from it.",
      labelNames: ['target', 'probe', 'check', 'reason'] as const,
      registers,
    }),
    streamingLateContent: new Gauge({
      name: 'coherency_conformance_streaming_late_content_ratio',
      help: "Share of a conformance probe's last stream's text (bytes) that arrived in the last 10% of the stream's time, 0-1. HIGHER is worse: about 0.1 when tokens flow; near 1 when something between the server and the exporter buffers the stream. Absent when the stream was too short to judge.",
      labelNames: ['target', 'probe'] as const,
      registers,
    }),
    streamingFirstContent: new Gauge({
      name: 'coherency_conformance_streaming_first_content_ratio',
      help: "Time to the first text of a conformance probe's last stream over the stream's total time, 0-1. HIGHER is worse: near 1 when the text came all at the end (a buffering proxy, with the late-content ratio near 1 too); a slow prefill raises it alone. Absent when the stream was too short to judge.",
      labelNames: ['target', 'probe'] as const,
      registers,
    }),
  };
}

export type ConformanceMetrics = ReturnType<typeof createConformanceMetrics>;

/**
 * What a conformance sample moves. A sample that is an error (no check got an answer: the target
 * is down) moves none of these, as an errored sample moves no quality figure: the checks said
 * nothing about the API, and CoherencyProbeErrors has the outage.
 */
export function recordConformanceSample(metrics: ConformanceMetrics, target: string, probe: string, sample: SampleResult): void {
  const outcome = outcomeOf(sample, 'conformance');
  if (!outcome || sample.verdict === 'error') return;
  for (const check of CONFORMANCE_CHECKS) {
    const labels = { target, probe, check };
    const result = outcome.checks.find((c) => c.check === check);
    for (const reason of CHECK_REASONS) if (reason !== result?.reason) metrics.checkFailureInfo.remove({ ...labels, reason });
    if (!result || result.status === 'skipped') {
      metrics.checkSuccess.remove(labels);
      metrics.checkConsecutiveFailures.remove(labels);
      metrics.checkFailureInfo.remove({ ...labels, reason: result?.reason ?? 'ok' });
    } else if (result.status === 'pass') {
      metrics.checkSuccess.set(labels, 1);
      metrics.checkConsecutiveFailures.set(labels, 0);
      metrics.checkFailureInfo.remove({ ...labels, reason: 'ok' });
    } else {
      metrics.checkSuccess.set(labels, 0);
      metrics.checkConsecutiveFailures.inc(labels);
      metrics.checkFailures.inc({ ...labels, reason: result.reason });
      metrics.checkFailureInfo.set({ ...labels, reason: result.reason }, 1);
    }
  }
  const tp = { target, probe };
  if (outcome.streaming) {
    metrics.streamingLateContent.set(tp, outcome.streaming.lateContentRatio);
    metrics.streamingFirstContent.set(tp, outcome.streaming.firstContentRatio);
  } else {
    metrics.streamingLateContent.remove(tp);
    metrics.streamingFirstContent.remove(tp);
  }
}
