/** What a probe does: one long generation (the default), a recall test, a contamination test, or a conformance checklist. */
export const PROBE_KINDS_NAMES = ['generation', 'recall', 'contamination', 'conformance'] as const;

export type ProbeKind = (typeof PROBE_KINDS_NAMES)[number];

/** Where in a recall conversation facts are planted. */
export const RECALL_POSITIONS = ['start', 'middle', 'end'] as const;

export type RecallPosition = (typeof RECALL_POSITIONS)[number];

export interface RecallSettings {
  /** Size of the built conversation, in estimated tokens (the simulator's tokenizer). */
  conversationTokens: number;
  /** How many facts are planted. */
  facts: number;
  /** Where they are planted, in turn; facts cycle through the list. */
  positions: RecallPosition[];
  /** Seeds the filler and the facts: the same seed gives the same conversation. */
  seed: number;
  /** Share of facts under which a sample fails (0-1). */
  minRecall: number;
}

export interface ContaminationSettings {
  /** Requests sent at once, each with its own topic and code word. */
  concurrency: number;
  /** Seeds topics and code words, together with the run id (each run's words differ). */
  seed: number;
}

/**
 * The checks of a conformance probe, in the order they run and are shown (each one a file of
 * src/probe/conformance/): what the endpoint and any proxy in front of it must get right.
 */
export const CONFORMANCE_CHECKS = ['models', 'chat', 'fields', 'reasoning', 'tools', 'streaming', 'limits', 'auth'] as const;

export type ConformanceCheckName = (typeof CONFORMANCE_CHECKS)[number];

export interface ConformanceSettings {
  /** The checks to run, in CONFORMANCE_CHECKS order (default: all; each one skips itself where it cannot apply). */
  checks: ConformanceCheckName[];
}
