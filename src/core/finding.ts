/**
 * The public face of findings: the bounded list of kinds (the `kind` label of
 * coherency_degeneration_reasons_total), derived from the detectors in the registry.
 */
import type { Finding as DetectorFinding } from './detectors/finding.js';
import type { FindingKind } from './detectors/registry.js';

export { FINDING_KINDS, type FindingKind } from './detectors/registry.js';
export { finding, reasonOf, type Severity } from './detectors/finding.js';

export type Finding = DetectorFinding<FindingKind>;
