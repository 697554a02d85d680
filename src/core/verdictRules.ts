/**
 * The verdict rules: a short ordered table, each rule a pure function of the findings,
 * tested alone (test/core/verdictRules.test.ts). Detectors judge their own figures; these
 * rules only settle how findings of different detectors combine.
 */
import type { Finding, FindingKind } from './finding.js';

export interface VerdictRule {
  name: string;
  /** Why the rule exists, for the reader of a report or of this table. */
  why: string;
  apply(findings: readonly Finding[]): Finding[];
}

/** Kinds that describe text repeating itself. */
export const REPEAT_KINDS: ReadonlySet<FindingKind> = new Set<FindingKind>([
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
  'cycling',
  'list_runaway',
]);

const fails = (fs: readonly Finding[]): boolean => fs.some((f) => f.severity === 'fail');

export const VERDICT_RULES: readonly VerdictRule[] = [
  {
    name: 'empty_says_all',
    why: 'an empty or whitespace-only output has no text for the other figures to describe',
    apply: (fs) => (fs.some((f) => f.kind === 'empty') ? fs.filter((f) => f.kind === 'empty') : [...fs]),
  },
  {
    name: 'vocabulary_yields_to_a_loop',
    why: 'a near_loop seen by vocabulary next to a repeat of another kind is the same repetition: the repeat, which knows whether it is verbatim and where it ends, is told, not both',
    apply: (fs) => {
      const otherRepeat = fs.some((f) => f.kind !== 'near_loop' && f.kind !== 'loop_coverage' && REPEAT_KINDS.has(f.kind));
      return otherRepeat ? fs.filter((f) => f.kind !== 'near_loop') : [...fs];
    },
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
  {
    name: 'compression_window_only_when_nothing_fails',
    why: 'a compressible window is a hint worth a warn only while nothing else explains it',
    apply: (fs) => (fails(fs) ? fs.filter((f) => !(f.kind === 'low_compression' && f.severity === 'warn')) : [...fs]),
  },
];

/** Applies the rules in order. */
export function applyRules(findings: readonly Finding[], rules: readonly VerdictRule[] = VERDICT_RULES): Finding[] {
  let out = [...findings];
  for (const r of rules) out = r.apply(out);
  return out;
}

/** The finding that names the collapse: the first fail, a whole-text compression figure only when nothing else fails. */
export function collapseFinding(findings: readonly Finding[]): Finding | null {
  const failing = findings.filter((f) => f.severity === 'fail');
  return failing.find((f) => f.kind !== 'low_compression') ?? failing[0] ?? null;
}

/** Where the collapse starts: the earliest placed fail (-1 when none is placed). */
export function collapseOnset(findings: readonly Finding[]): number {
  let onset = -1;
  for (const f of findings) if (f.severity === 'fail' && f.atChar >= 0 && (onset < 0 || f.atChar < onset)) onset = f.atChar;
  return onset;
}
