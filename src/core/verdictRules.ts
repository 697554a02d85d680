/**
 * The verdict rules: a short ordered table, each rule a pure function of the findings,
 * tested alone (test/core/verdictRules.test.ts). Detectors judge their own figures; these
 * rules only settle how findings of different detectors combine.
 */
import { REPETITION_KINDS } from './detectors/repetition/repetition.js';
import type { Finding, FindingKind } from './finding.js';

export interface VerdictRule {
  name: string;
  /** Why the rule exists, for the reader of a report or of this table. */
  why: string;
  apply(findings: readonly Finding[]): Finding[];
}

/** Kinds that describe text repeating itself: the repetition detector's, and a unit glued to itself. */
export const REPEAT_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>([...REPETITION_KINDS, 'char_flood']);

export const VERDICT_RULES: readonly VerdictRule[] = [
  {
    name: 'empty_says_all',
    why: 'an empty or whitespace-only output has no text for the other figures to describe',
    apply: (fs) => (fs.some((f) => f.kind === 'empty') ? fs.filter((f) => f.kind === 'empty') : [...fs]),
  },
  {
    name: 'one_finding_per_kind',
    why: 'two detectors can see the same thing (a word run and a one-word loop; a loop seen whole and at the tail): keep the most severe, then a certain one, then the first',
    apply: (fs) => {
      const best = new Map<FindingKind, Finding>();
      for (const f of fs) {
        const had = best.get(f.kind);
        if (!had || (had.severity === 'warn' && f.severity === 'fail') || (had.severity === f.severity && !had.certain && f.certain))
          best.set(f.kind, f);
      }
      return fs.filter((f) => best.get(f.kind) === f);
    },
  },
];

/** Applies the rules in order. */
export function applyRules(findings: readonly Finding[], rules: readonly VerdictRule[] = VERDICT_RULES): Finding[] {
  let out = [...findings];
  for (const r of rules) out = r.apply(out);
  return out;
}

/** The finding that names the collapse: the first fail. */
export function collapseFinding(findings: readonly Finding[]): Finding | null {
  return findings.find((f) => f.severity === 'fail') ?? null;
}

/** Where the collapse starts: the earliest placed fail (-1 when none is placed). */
export function collapseOnset(findings: readonly Finding[]): number {
  let onset = -1;
  for (const f of findings) if (f.severity === 'fail' && f.atChar >= 0 && (onset < 0 || f.atChar < onset)) onset = f.atChar;
  return onset;
}
