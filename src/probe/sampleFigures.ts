import type { FindingKind } from '../core/finding.js';
import { REPEAT_KINDS } from '../core/verdictRules.js';
import type { SampleFigures } from '../fingerprint/changeComparison.js';
import type { SampleResult } from './probeTypes.js';

const LOOP_KINDS: ReadonlySet<string> = new Set<FindingKind>([...REPEAT_KINDS, 'stutter']);

/** What a finished sample adds to its pair's before/after comparison (fingerprint/changeComparison.ts). */
export function sampleFigures(s: SampleResult): SampleFigures {
  const checks = (s.outcome?.kind === 'conformance' ? s.outcome.checks : []).filter((c) => c.status !== 'skipped');
  return {
    failed: s.verdict === 'fail',
    errored: s.verdict === 'error',
    loop: s.findings.some((f) => LOOP_KINDS.has(f.kind)),
    onsetToken: s.onsetToken,
    recall: s.outcome?.kind === 'recall' ? s.outcome.ratio : null,
    golden: s.outcome?.kind === 'golden' && s.verdict !== 'error' ? (s.outcome.correct ? 1 : 0) : null,
    conformanceFailed: checks.length > 0 ? checks.filter((c) => c.status === 'fail').length / checks.length : null,
    ttftSeconds: s.ttftSeconds,
    itlSeconds:
      s.ttftSeconds !== null && s.outputTokens > 1 && s.durationSeconds > s.ttftSeconds
        ? (s.durationSeconds - s.ttftSeconds) / (s.outputTokens - 1)
        : null,
  };
}
