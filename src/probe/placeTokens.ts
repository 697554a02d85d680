import type { Analysis } from '../core/analysisTypes.js';

/**
 * The analysis with every token index of the text taken from `tokenAt` (the server's token
 * count at a char offset): findings' atToken and the metrics' repeatOnsetToken and
 * collapseOnsetToken. The live analyzer counts no tokens, so without this the metrics say
 * -1 while the sample's onsetToken, mapped the same way, has a value. Offsets of -1 stay -1.
 */
export function placeTokens(analysis: Analysis, tokenAt: (charOffset: number) => number): Analysis {
  const at = (offset: number) => (offset >= 0 ? tokenAt(offset) : -1);
  const { metrics } = analysis;
  return {
    ...analysis,
    findings: analysis.findings.map((f) => ({ ...f, atToken: at(f.atChar) })),
    metrics: { ...metrics, repeatOnsetToken: at(metrics.repeatOnset), collapseOnsetToken: at(metrics.collapseOnset) },
  };
}
