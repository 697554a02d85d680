import type { SampleResult } from '../probe/probeTypes.js';

/** The label of a sample in progress lines and reports. */
export function sampleLabel(target: string, probe: string, index: number): string {
  return `${target}/${probe} #${index}`;
}

/** One line when a sample ends (progress off a TTY, and the head of its report). */
export function sampleEndLine(target: string, probe: string, s: SampleResult): string {
  const figures = [
    `${s.outputTokens} tokens`,
    s.tokensPerSecond !== null ? `${Math.round(s.tokensPerSecond)} tokens/s` : null,
    `${s.durationSeconds.toFixed(1)} s`,
    s.finishReason ? `finish ${s.finishReason}` : null,
    s.aborted ? `aborted at ${s.tokensAtAbort} tokens (${s.tokensSaved} saved)` : null,
  ].filter((x) => x !== null);
  return `${sampleLabel(target, probe, s.index)}: ${s.verdict.toUpperCase()} (${figures.join(', ')})`;
}

/** The final report of one sample: verdict and figures, reasons, the loop with its onset, where --save wrote. */
export function sampleReport(target: string, probe: string, s: SampleResult, savedTo: string | null): string {
  const lines = [sampleEndLine(target, probe, s)];
  if (s.error && !s.reasons.length) lines.push(`  error: ${s.error.type}: ${s.error.message}`);
  for (const r of s.reasons) lines.push(`  - ${r}`);
  const loop = s.findings.find((f) => f.severity === 'fail' && f.excerpt) ?? s.findings.find((f) => f.excerpt);
  if (loop) {
    const onset = s.onsetToken ?? (loop.atToken >= 0 ? loop.atToken : null);
    lines.push(
      `  ${loop.kind}${onset !== null ? ` from token ${onset}` : ''}${loop.atChar >= 0 ? ` (char ${loop.atChar})` : ''}: "${loop.excerpt}"`,
    );
  }
  for (const n of s.notes) lines.push(`  note: ${n}`);
  if (savedTo) lines.push(`  saved: ${savedTo}`);
  return `${lines.join('\n')}\n`;
}
