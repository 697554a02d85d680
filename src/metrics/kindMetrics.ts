import { Counter, Gauge, type Registry } from 'prom-client';
import type { Config } from '../config/types.js';
import type { SampleResult } from '../probe/probeTypes.js';

const TP = ['target', 'probe'] as const;

/** The series of the recall, contamination and golden probe kinds (the same under metrics.detail basic and full). */
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
    goldenAnswers: new Counter({
      name: 'coherency_golden_answers_total',
      help:
        'Answers of a golden probe (tasks with one exact answer, at temperature 0), by result: correct or wrong (a missing ANSWER: line is wrong). ' +
        'The share correct, increase of result="correct" over the increase of both, is the figure to watch: HIGHER is better, and a fall below ' +
        "the pair's own recent share means the model got worse (CoherencyGoldenAccuracyDropped). Errored samples are not counted. Only golden probes have it.",
      labelNames: [...TP, 'result'] as const,
      registers,
    }),
  };
}

export type KindMetrics = ReturnType<typeof createKindMetrics>;

/** What a recall, contamination or golden sample moves; nothing for other samples. */
export function recordKindSample(metrics: KindMetrics, target: string, probe: string, sample: SampleResult): void {
  const o = sample.outcome;
  if (o?.kind === 'recall') {
    metrics.recallRatio.set({ target, probe }, o.ratio);
    metrics.recallMinRatio.set({ target, probe }, o.minRecall);
  }
  if (o?.kind === 'contamination' && o.leakedFrom.length > 0 && sample.verdict !== 'error') {
    metrics.contaminationDetected.inc({ target, probe });
  }
  if (o?.kind === 'golden' && sample.verdict !== 'error') {
    metrics.goldenAnswers.inc({ target, probe, result: o.correct ? 'correct' : 'wrong' });
  }
}

/** Creates the contamination and golden counters at 0, so that increase() sees the very first leak or wrong answer. */
export function initKindSeries(metrics: KindMetrics, config: Pick<Config, 'targets' | 'probes'>): void {
  for (const t of config.targets) {
    for (const name of t.probes) {
      const probe = config.probes.find((p) => p.name === name);
      if (probe?.kind === 'contamination') metrics.contaminationDetected.inc({ target: t.name, probe: name }, 0);
      if (probe?.kind === 'golden')
        for (const result of ['correct', 'wrong']) metrics.goldenAnswers.inc({ target: t.name, probe: name, result }, 0);
    }
  }
}
