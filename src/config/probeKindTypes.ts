/** What a probe does: one long generation (the default), a recall test, or a contamination test. */
export const PROBE_KINDS_NAMES = ['generation', 'recall', 'contamination'] as const;

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
