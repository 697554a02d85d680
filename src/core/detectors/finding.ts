/**
 * A finding: one thing a detector saw in the text, with where it starts. Reasons, the
 * `kind` label of coherency_degeneration_reasons_total, the collapse kind and its onset are
 * all derived from findings; nothing downstream reads a reason string back.
 */
import { isJsSpace } from '../text/jsSpace.js';

export type Severity = 'warn' | 'fail';

export interface Finding<K extends string = string> {
  kind: K;
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
  /** The rule or threshold that made it (a name from the detector's rule table), when the detector names one. */
  rule?: string;
}

/** A finding as a detector makes it; the verdict adds the token index and the excerpt. */
export function finding<K extends string>(kind: K, severity: Severity, atChar: number, detail: string, certain = false): Finding<K> {
  return { kind, severity, certain: severity === 'fail' && certain, atChar, atToken: -1, detail, excerpt: '' };
}

/** "kind: detail", the reason line shown to people. */
export function reasonOf(f: Finding): string {
  return `${f.kind}: ${f.detail}`;
}

/** A text cut to `max` chars with whitespace flattened (each run of JavaScript's `\s` one space), for details and excerpts. */
export function excerptOf(s: string, max: number): string {
  // pieces between runs copied as they are: a run is rare in an excerpt, and a lone space stays; once past `max` the
  // rest cannot change the excerpt (a regular expression over the whole text cost each analysis a few microseconds)
  let flat = '';
  let from = 0;
  let i = 0;
  for (; i < s.length && flat.length <= max; i++) {
    const c = s.charCodeAt(i);
    if (!isJsSpace(c)) continue;
    let j = i + 1;
    while (j < s.length && isJsSpace(s.charCodeAt(j))) j++;
    if (j > i + 1 || c !== 0x20) {
      flat += `${s.slice(from, i)} `;
      from = j;
    }
    i = j - 1;
  }
  if (flat.length <= max) flat += s.slice(from);
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A number for a detail line: integers as they are, others with `digits` decimals. */
export function fmt(x: number, digits = 2): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}
