import type { ProbeKind } from '../../config/probeKindTypes.js';
import { SAMPLE_LEVEL_FINDING_KINDS } from '../probeTypes.js';
import type { ProbeKindModule } from '../probeDeps.js';
import { conformanceKind } from './conformanceKind.js';
import { contaminationKind } from './contaminationKind.js';
import { generationKind } from './generationKind.js';
import { goldenKind } from './goldenKind.js';
import { recallKind } from './recallKind.js';

/**
 * Kind name → its module (runProbe.ts dispatches through it). A new kind is one module of this
 * folder and one entry here (docs/development.md, "Adding a probe kind"); what lists kinds
 * below derives from this map.
 */
export const PROBE_KINDS: Readonly<{ [K in ProbeKind]: ProbeKindModule<K> }> = Object.freeze({
  generation: generationKind,
  recall: recallKind,
  contamination: contaminationKind,
  conformance: conformanceKind,
  golden: goldenKind,
});

/** The kind of a probe (generation when it names none). */
export function probeKindOf(probe: { kind?: ProbeKind | undefined }): ProbeKindModule {
  return PROBE_KINDS[probe.kind ?? 'generation'];
}

/**
 * The finding kinds the probe kinds add, in the map's order: sample-level, bounded, and so safe
 * as the `kind` label of coherency_degeneration_reasons_total like every other finding kind
 * (`conformance`: a check failed; which one, and why, is in its own metrics).
 */
export const PROBE_KIND_FINDING_KINDS: readonly ProbeKindModule['findingKinds'][number][] = Object.values(PROBE_KINDS).flatMap(
  (k: ProbeKindModule) => k.findingKinds,
);

/** Every sample-level finding kind: the ones any sample can have, then the probe kinds'. */
export const SAMPLE_FINDING_KINDS = [...SAMPLE_LEVEL_FINDING_KINDS, ...PROBE_KIND_FINDING_KINDS] as const;
