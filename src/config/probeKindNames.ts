/** What a probe does: one long generation (the default), a recall test, a contamination test, a conformance checklist, or golden exact-answer tasks. */
export const PROBE_KINDS_NAMES = ['generation', 'recall', 'contamination', 'conformance', 'golden'] as const;

/** Where in a recall conversation facts are planted. */
export const RECALL_POSITIONS = ['start', 'middle', 'end'] as const;

/**
 * The checks of a conformance probe, in the order they run and are shown (each one a file of
 * src/probe/conformance/): what the endpoint and any proxy in front of it must get right.
 */
export const CONFORMANCE_CHECKS = ['models', 'chat', 'fields', 'reasoning', 'tools', 'streaming', 'limits', 'auth'] as const;

/** The tasks of a golden probe, each with exactly one right answer (src/probe/golden/goldenTasks.ts). */
export const GOLDEN_TASKS = ['arithmetic', 'copy', 'count', 'sort', 'lookup'] as const;
