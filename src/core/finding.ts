/**
 * A finding: one thing a detector saw in the text, with where it starts. Reasons, the
 * `kind` label of coherency_degeneration_reasons_total, the collapse kind and its onset
 * are all derived from findings; nothing downstream reads a reason string back.
 */

/** Every kind a finding can have: a bounded set, so it is safe as a Prometheus label. */
export const FINDING_KINDS = [
  'empty',
  'word_loop',
  'phrase_loop',
  'sentence_loop',
  'line_loop',
  'paragraph_loop',
  'near_loop',
  'loop_coverage',
  'tag_spam',
  'punctuation_flood',
  'char_flood',
  'whitespace_flood',
  'stutter',
  'cycling',
  'list_runaway',
  'word_salad',
  'gibberish',
  'special_tokens',
  'script_switch',
  'low_compression',
] as const;

export type FindingKind = (typeof FINDING_KINDS)[number];

export type Severity = 'warn' | 'fail';

export interface Finding {
  kind: FindingKind;
  severity: Severity;
  /** Beyond doubt and will not recover if the stream goes on: the daemon may abort on it. */
  certain: boolean;
  /** UTF-16 offset where what was found starts; -1 when it has no place (a whole-text figure). */
  atChar: number;
  /** Stream token index of atChar; -1 when token offsets are unknown. Filled in by the verdict. */
  atToken: number;
  /** One line for a person: what was seen, its size, and why it counts (or only warns). */
  detail: string;
  /** Up to 80 chars of the text from atChar, whitespace flattened ('' when none). Filled in by the verdict when left empty. */
  excerpt: string;
}

/** A finding as a detector makes it; the verdict adds the token index and the excerpt. */
export function finding(kind: FindingKind, severity: Severity, atChar: number, detail: string, certain = false): Finding {
  return { kind, severity, certain: severity === 'fail' && certain, atChar, atToken: -1, detail, excerpt: '' };
}

/** "kind: detail", the reason line shown to people. */
export function reasonOf(f: Finding): string {
  return `${f.kind}: ${f.detail}`;
}
