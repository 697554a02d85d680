/**
 * The probe kinds' names and settings. The settings' types are derived from the kind keys'
 * declarations in configSpec.ts (what each key means is said there); the names live in
 * probeKindNames.ts, which the spec reads, and are exported again here for the probe kinds.
 */
import { CONFORMANCE_CHECKS, PROBE_KINDS_NAMES, RECALL_POSITIONS } from './probeKindNames.js';
import type { SectionValue } from './specTypes.js';

export { CONFORMANCE_CHECKS, PROBE_KINDS_NAMES, RECALL_POSITIONS };

export type ProbeKind = (typeof PROBE_KINDS_NAMES)[number];
export type RecallPosition = (typeof RECALL_POSITIONS)[number];
export type ConformanceCheckName = (typeof CONFORMANCE_CHECKS)[number];

type Probe = SectionValue<'probe'>;

/** A recall conversation: its size in estimated tokens, the facts planted, where, its seed, and the share under which a sample fails. */
export type RecallSettings = Pick<Probe, 'conversationTokens' | 'facts' | 'positions' | 'seed' | 'minRecall'>;

/** Requests sent at once, each with its own topic and code word; the seed of topics and code words (with the run id). */
export type ContaminationSettings = Pick<Probe, 'concurrency' | 'seed'>;

/** The checks to run, in CONFORMANCE_CHECKS order (default: all; each one skips itself where it cannot apply). */
export type ConformanceSettings = Pick<Probe, 'checks'>;
