import { Counter, Gauge, type Registry } from 'prom-client';
import type { Config } from '../config/types.js';
import type { SampleResult } from '../probe/probeTypes.js';

const TP = ['target', 'probe'] as const;

/** The series of the recall and contamination probe kinds (the same under metrics.detail basic and full). */
export function createKindMetrics(registers: Registry[]) {
  return {
    recallRatio: new Gauge({
      name: 'coherency_recall_ratio',
      help:
        "Share of the facts planted in a recall probe's long conversation that the last sample's answer gave back, 0-1. " +
        "HIGHER is better: 1 = every fact recalled; under the probe's minRecall the sample fails. Only recall probes have it.",
      labelNames: TP,
      registers,
    }),
    recallMinRatio: new Gauge({
      name: 'coherency_recall_min_ratio',
      help: "The recall probe's minRecall, 0-1: a coherency_recall_ratio under it is a failed sample (what CoherencyRecallLow compares with).",
      labelNames: TP,
      registers,
    }),
    contaminationDetected: new Counter({
      name: 'coherency_contamination_detected_total',
      help:
        'Answers of a contamination probe that held the code word of another request sent at the same time: context bled between requests. ' +
        'Any increase is a failure. Only contamination probes have it.',
      labelNames: TP,
      registers,
    }),
  };
}

export type KindMetrics = ReturnType<typeof createKindMetrics>;

/** What a recall or contamination sample moves; nothing for other samples. */
export function recordKindSample(metrics: KindMetrics, target: string, probe: string, sample: SampleResult): void {
  const o = sample.outcome;
  if (o?.kind === 'recall') {
    metrics.recallRatio.set({ target, probe }, o.ratio);
    metrics.recallMinRatio.set({ target, probe }, o.minRecall);
  }
  if (o?.kind === 'contamination' && o.leakedFrom.length > 0 && sample.verdict !== 'error') {
    metrics.contaminationDetected.inc({ target, probe });
  }
}

/** Creates the contamination counters at 0, so that increase() sees the very first leak. */
export function initKindSeries(metrics: KindMetrics, config: Pick<Config, 'targets' | 'probes'>): void {
  for (const t of config.targets) {
    for (const name of t.probes) {
      const probe = config.probes.find((p) => p.name === name);
      if (probe?.kind === 'contamination') metrics.contaminationDetected.inc({ target: t.name, probe: name }, 0);
    }
  }
}
