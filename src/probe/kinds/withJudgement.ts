import { type SampleFinding, type SampleOutcome, type SampleResult, worstVerdict } from '../probeTypes.js';

/** A sample-level finding of a kind, as the kind writes it (the rest is filled in). */
export type KindFinding = Omit<SampleFinding, 'channel' | 'certain' | 'atToken' | 'excerpt'> & { excerpt?: string };

/** What a kind adds to a judged sample. */
export interface KindJudgement {
  outcome?: SampleOutcome;
  /** Sample-level findings: each adds its reason line and raises the verdict to its severity (an error stays an error). */
  findings?: readonly KindFinding[];
  notes?: readonly string[];
}

/**
 * The sample with a kind's judgement added, as a new sample: the one given is left as it was, so
 * no result is changed after it was built.
 */
export function withJudgement(sample: SampleResult, judgement: KindJudgement): SampleResult {
  const added = (judgement.findings ?? []).map(
    (f): SampleFinding => ({ certain: false, atToken: -1, excerpt: '', ...f, channel: 'sample' }),
  );
  return {
    ...sample,
    verdict: sample.verdict === 'error' ? 'error' : worstVerdict([sample.verdict, ...added.map((f) => f.severity)]),
    findings: [...sample.findings, ...added],
    reasons: [...sample.reasons, ...added.map((f) => `${f.kind}: ${f.detail}`)],
    notes: [...sample.notes, ...(judgement.notes ?? [])],
    ...(judgement.outcome ? { outcome: judgement.outcome } : {}),
  };
}

/** Up to 80 chars of the text from `at`, whitespace flattened (as analyzer findings show). */
export function excerptAt(text: string, at: number): string {
  return at < 0 ? '' : text.slice(at, at + 80).replace(/\s+/g, ' ');
}
