import type { RecallPosition } from '../../config/probeKindTypes.js';

/**
 * Finding kinds of the recall, contamination and conformance probes: sample-level, bounded, and
 * so safe as the `kind` label of coherency_degeneration_reasons_total like every other finding
 * kind (`conformance`: a check failed; which one, and why, is in its own metrics).
 */
export const PROBE_KIND_FINDING_KINDS = ['recall_missed', 'contamination', 'codeword_missing', 'conformance'] as const;

export type ProbeKindFindingKind = (typeof PROBE_KIND_FINDING_KINDS)[number];

/** What a recall sample carries besides the usual fields (shown in /runs, never as labels). */
export interface RecallOutcome {
  /** Recalled facts / planted facts, 0-1. */
  ratio: number;
  /** The probe's minRecall: under it the sample fails. */
  minRecall: number;
  facts: number;
  recalled: number;
  /** Estimated prompt tokens of the conversation sent. */
  conversationTokens: number;
  byPosition: Partial<Record<RecallPosition, { planted: number; recalled: number }>>;
  /** The facts the answer lacked, with where they were planted. */
  missed: { position: RecallPosition; label: string; value: string }[];
}

/** What a contamination sample carries: one of the simultaneous requests. */
export interface ContaminationOutcome {
  /** This request's number in its round (1-based, as findings name it). */
  request: number;
  topic: string;
  codeWord: string;
  /** Its own code word was in its answer. */
  ownCodeWord: boolean;
  /** Numbers of the other requests whose code words its answer held (empty: none, the healthy case). */
  leakedFrom: number[];
}
