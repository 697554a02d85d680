import { worstVerdict, type SampleFinding, type SampleResult } from '../probeTypes.js';

/** Adds a sample-level finding (and its reason line) and raises the verdict to the finding's severity. */
export function addFinding(
  sample: SampleResult,
  finding: Omit<SampleFinding, 'channel' | 'certain' | 'atToken' | 'excerpt'> & { excerpt?: string },
): void {
  sample.findings.push({ certain: false, atToken: -1, excerpt: '', ...finding, channel: 'sample' });
  sample.reasons.push(`${finding.kind}: ${finding.detail}`);
  if (sample.verdict !== 'error') sample.verdict = worstVerdict([sample.verdict, finding.severity]);
}

/** Up to 80 chars of the text from `at`, whitespace flattened (as analyzer findings show). */
export function excerptAt(text: string, at: number): string {
  return at < 0 ? '' : text.slice(at, at + 80).replace(/\s+/g, ' ');
}
