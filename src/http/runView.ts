import { findingKinds } from '../probe/judgeSample.js';
import { findingView } from './findingView.js';
import type { RunResult, SampleResult } from '../probe/probeTypes.js';

/** A sample as the HTTP API shows it: with or without the full output text. */
export function sampleView(sample: SampleResult, includeText: boolean) {
  const { content, reasoning, ...rest } = sample;
  const shown = { ...rest, findings: rest.findings.map(findingView) };
  return includeText ? { ...shown, content, reasoning } : shown;
}

export function runView(run: RunResult, includeText = false) {
  return { ...run, samples: run.samples.map((s) => sampleView(s, includeText)) };
}

/** One line per run for listings. */
export function runListItem(run: RunResult) {
  return {
    id: run.id,
    target: run.target,
    probe: run.probe,
    verdict: run.verdict,
    trigger: run.trigger,
    startedAt: run.startedAt,
    durationSeconds: run.durationSeconds,
    // the listing names the kinds; GET /runs/:id gives each finding with its offsets and excerpt
    samples: run.samples.map((s) => ({
      verdict: s.verdict,
      findings: findingKinds(s.findings),
      outputTokens: s.outputTokens,
      error: s.error?.type ?? null,
    })),
  };
}
