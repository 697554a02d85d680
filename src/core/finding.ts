/**
 * The public face of findings: the bounded list of kinds (the `kind` label of
 * coherency_degeneration_reasons_total), derived from the detectors in the registry, plus the
 * learned verdict's own kind.
 */
import type { Finding as DetectorFinding } from './detectors/finding.js';
import { FINDING_KINDS as DETECTOR_KINDS, type FindingKind as DetectorKind } from './detectors/registry.js';

/** The detectors' kinds and `learned`: a fail or warning of the learned verdict's model, which no detector makes. */
export type FindingKind = DetectorKind | 'learned';
export const FINDING_KINDS: readonly FindingKind[] = Object.freeze([...DETECTOR_KINDS, 'learned']);
export { finding, reasonOf, type Severity } from './detectors/finding.js';

export type Finding = DetectorFinding<FindingKind>;
