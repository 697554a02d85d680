/**
 * A probe's kind settings, nested as the probe kinds take them, from the flat keys the reader
 * has read (their ranges, defaults and the kind each belongs to are declared in configSpec.ts).
 */
import { CONFIG_SPEC, type FieldSpec } from './configSpec.js';
import {
  CONFORMANCE_CHECKS,
  type ConformanceSettings,
  type ContaminationSettings,
  GOLDEN_TASKS,
  type GoldenSettings,
  type ProbeKind,
  type RecallSettings,
} from './probeKindTypes.js';
import type { SectionValue } from './specTypes.js';

/** Every key the kinds add to a probe (kind itself included): the keys declared onlyWhen a kind. */
export const PROBE_KIND_CONFIG_KEYS: readonly string[] = [
  'kind',
  ...Object.entries(CONFIG_SPEC.probe.fields as Record<string, FieldSpec>)
    .filter(([, f]) => f.onlyWhen?.key === 'kind')
    .map(([key]) => key),
];

export interface ProbeKindSettings {
  /** Absent for generation probes. */
  kind?: ProbeKind;
  recall?: RecallSettings;
  contamination?: ContaminationSettings;
  conformance?: ConformanceSettings;
  golden?: GoldenSettings;
}

export function probeKindSettings(pr: SectionValue<'probe'>): ProbeKindSettings {
  const { kind } = pr;
  switch (kind) {
    case 'recall':
      return {
        kind,
        recall: {
          conversationTokens: pr.conversationTokens,
          facts: pr.facts,
          positions: pr.positions,
          seed: pr.seed,
          minRecall: pr.minRecall,
        },
      };
    case 'contamination':
      return { kind, contamination: { concurrency: pr.concurrency, seed: pr.seed } };
    case 'conformance':
      // in CONFORMANCE_CHECKS order: the order they run and are shown
      return { kind, conformance: { checks: CONFORMANCE_CHECKS.filter((c) => pr.checks.includes(c)) } };
    case 'golden':
      // in GOLDEN_TASKS order: the order they are asked in
      return { kind, golden: { tasks: GOLDEN_TASKS.filter((t) => pr.tasks.includes(t)), seed: pr.seed } };
    default:
      // a generation probe keeps the shape it always had: no kind field (runProbe reads absent as generation)
      return {};
  }
}
