import { finishText, temperatureText } from '../http/sampleFacts.js';
import { outcomeOf, type SampleResult } from '../probe/probeTypes.js';
import { checklistLines, checklistSummary } from './checklistReport.js';

/** The label of a sample in progress lines and reports. */
export function sampleLabel(target: string, probe: string, index: number): string {
  return `${target}/${probe} #${index}`;
}

/** One line when a sample ends (progress off a TTY, and the head of its report). */
export function sampleEndLine(target: string, probe: string, s: SampleResult): string {
  const checklist = outcomeOf(s, 'conformance');
  if (checklist) {
    const figures = [...(checklist.checks.length ? [checklistSummary(checklist)] : []), `${s.durationSeconds.toFixed(1)} s`];
    return `${sampleLabel(target, probe, s.index)}: ${s.verdict.toUpperCase()} (${figures.join(', ')})`;
  }
  const figures = [
    `${s.outputTokens} tokens`,
    s.tokensPerSecond !== null ? `${Math.round(s.tokensPerSecond)} tokens/s` : null,
    `${s.durationSeconds.toFixed(1)} s`,
    temperatureText(s) !== null ? `temperature ${temperatureText(s)}` : null,
    finishText(s) !== null ? `finish ${finishText(s)}` : null,
    s.aborted ? `aborted at ${s.tokensAtAbort} tokens (${s.tokensSaved} saved)` : null,
  ].filter((x) => x !== null);
  return `${sampleLabel(target, probe, s.index)}: ${s.verdict.toUpperCase()} (${figures.join(', ')})`;
}

/** The final report of one sample: verdict and figures, reasons, the loop with its onset, where --save wrote. */
export function sampleReport(target: string, probe: string, s: SampleResult, savedTo: string | null): string {
  const lines = [sampleEndLine(target, probe, s)];
  const checklist = outcomeOf(s, 'conformance');
  if (checklist) {
    // the checklist says what the reasons would (one per failed check)
    if (s.error) lines.push(`  error: ${s.error.type}: ${s.error.message}`);
    lines.push(...checklistLines(checklist));
    for (const n of s.notes) lines.push(`  note: ${n}`);
    return `${lines.join('\n')}\n`;
  }
  if (s.error && !s.reasons.length) lines.push(`  error: ${s.error.type}: ${s.error.message}`);
  for (const r of s.reasons) lines.push(`  - ${r}`);
  const loop = s.findings.find((f) => f.severity === 'fail' && f.excerpt) ?? s.findings.find((f) => f.excerpt);
  if (loop) {
    const onset = s.onsetToken ?? (loop.atToken >= 0 ? loop.atToken : null);
    lines.push(
      `  ${loop.kind}${onset !== null ? ` from token ${onset}` : ''}${loop.atChar >= 0 ? ` (char ${loop.atChar})` : ''}: "${loop.excerpt}"`,
    );
  }
  lines.push(...signalLines(s));
  for (const n of s.notes) lines.push(`  note: ${n}`);
  if (savedTo) lines.push(`  saved: ${savedTo}`);
  return `${lines.join('\n')}\n`;
}

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * The figures of the probe's other signals, when the sample has them: prompt adherence,
 * logprobs, recall and contamination (--json carries them all).
 */
export function signalLines(s: SampleResult): string[] {
  const out: string[] = [];
  const a = s.adherence;
  if (a) {
    const keywords =
      a.coverage === null
        ? null
        : `keywords ${a.matched.length} of ${a.matched.length + a.missing.length} (${pct(a.coverage)})` +
          (a.missing.length > 0
            ? `, missing ${a.missing
                .slice(0, 5)
                .map((k) => JSON.stringify(k))
                .join(', ')}${a.missing.length > 5 ? ', ...' : ''}`
            : '');
    out.push(`  adherence: ${[keywords, `${a.headings} heading${a.headings === 1 ? '' : 's'}`].filter((x) => x !== null).join('; ')}`);
  }
  const l = s.logprobs;
  if (l) {
    out.push(
      `  logprobs: mean ${l.meanLogprob.toFixed(2)} over ${l.tokens} tokens; last ${l.tailTokens}: mean ${l.tailMeanLogprob.toFixed(2)}, ${pct(l.tailNearCertainRatio)} near-certain`,
    );
  }
  const r = outcomeOf(s, 'recall');
  if (r) {
    const missed = r.missed.slice(0, 5).map((m) => `${m.label} (${m.position})`);
    out.push(
      `  recall: ${r.recalled} of ${r.facts} facts (${pct(r.ratio)}, min ${pct(r.minRecall)}) from a ${r.conversationTokens}-token conversation` +
        (missed.length > 0 ? `; missed ${missed.join(', ')}${r.missed.length > 5 ? ', ...' : ''}` : ''),
    );
  }
  const c = outcomeOf(s, 'contamination');
  if (c) {
    const own = c.ownCodeWord ? 'its own code word answered' : 'its own code word missing';
    const leaked = c.leakedFrom.length > 0 ? `; holds the code word of request ${c.leakedFrom.join(', ')}` : '';
    out.push(`  contamination: request ${c.request} (${c.topic}, code word ${c.codeWord}): ${own}${leaked}`);
  }
  return out;
}
