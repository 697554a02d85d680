/**
 * The probe kinds' names and settings. Each kind's settings are the probe keys declared
 * onlyWhen that kind in configSpec.ts, with their types (what each key means is said there);
 * the names live in probeKindNames.ts, which the spec reads, and are exported again here.
 */
import { CONFORMANCE_CHECKS, GOLDEN_TASKS, PROBE_KINDS_NAMES, RECALL_POSITIONS } from './probeKindNames.js';
import type { KeysOnlyWhen, SectionValue } from './specTypes.js';

export { CONFORMANCE_CHECKS, GOLDEN_TASKS, PROBE_KINDS_NAMES, RECALL_POSITIONS };

export type ProbeKind = (typeof PROBE_KINDS_NAMES)[number];
export type RecallPosition = (typeof RECALL_POSITIONS)[number];
export type ConformanceCheckName = (typeof CONFORMANCE_CHECKS)[number];
export type GoldenTaskName = (typeof GOLDEN_TASKS)[number];

type Probe = SectionValue<'probe'>;

/** A recall conversation: its size in estimated tokens, the facts planted, where, its seed, and the share under which a sample fails. */
export type RecallSettings = Pick<Probe, KeysOnlyWhen<'probe', 'recall'>>;

/** Requests sent at once, each with its own topic and code word; the seed of topics and code words (with the run id). */
export type ContaminationSettings = Pick<Probe, KeysOnlyWhen<'probe', 'contamination'>>;

/** The checks to run, in CONFORMANCE_CHECKS order (default: all; each one skips itself where it cannot apply). */
export type ConformanceSettings = Pick<Probe, KeysOnlyWhen<'probe', 'conformance'>>;

/** The tasks asked in turn, and the seed of their content (with the run id and the sample's index). */
export type GoldenSettings = Pick<Probe, KeysOnlyWhen<'probe', 'golden'>>;
