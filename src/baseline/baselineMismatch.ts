import type { Baseline, ProbeSettings } from './baselineFormat.js';

export interface PlannedPair {
  target: string;
  probe: string;
  settings: ProbeSettings;
}

const DIGESTS: ReadonlySet<keyof ProbeSettings> = new Set(['messages', 'extraBody', 'thresholds', 'kindSettings']);
const SETTING_NAMES: Record<keyof ProbeSettings, string> = {
  kind: 'kind',
  maxTokens: 'maxTokens',
  temperature: 'temperature',
  temperatures: 'temperatures',
  samples: 'samples',
  minTokens: 'minTokens',
  seed: 'seed (extraBody.seed)',
  messages: 'the prompt (messages)',
  extraBody: 'extraBody',
  thresholds: 'thresholds',
  kindSettings: "the kind's settings (recall, contamination, conformance, expect)",
};

/**
 * Why a baseline cannot judge this run, one sentence each (empty: it can): made by another
 * version of the tool, or of another set of target × probe pairs, or of a probe whose settings
 * changed. Checked before anything is sent, so a refused gate costs no tokens.
 */
export function baselineMismatch(baseline: Baseline, version: string, planned: readonly PlannedPair[]): string[] {
  const problems: string[] = [];
  if (baseline.tool.version !== version)
    problems.push(
      `the baseline was made by coherency-exporter ${baseline.tool.version}, this is ${version}: figures of another version are not comparable; save a new baseline with this one`,
    );
  const key = (p: { target: string; probe: string }) => `${p.target}/${p.probe}`;
  const have = new Set(planned.map(key));
  const had = new Set(baseline.pairs.map(key));
  const missing = [...had].filter((k) => !have.has(k));
  const extra = [...have].filter((k) => !had.has(k));
  if (missing.length) problems.push(`the baseline has ${missing.join(', ')}, which this run does not select`);
  if (extra.length) problems.push(`this run selects ${extra.join(', ')}, which the baseline does not have`);
  for (const p of planned) {
    const b = baseline.pairs.find((x) => key(x) === key(p));
    if (!b) continue;
    const changed = (Object.keys(SETTING_NAMES) as (keyof ProbeSettings)[]).filter((k) => b.settings[k] !== p.settings[k]);
    if (changed.length)
      problems.push(
        `probe ${p.probe} of target ${p.target} has other settings than in the baseline: ${changed
          .map((k) =>
            DIGESTS.has(k)
              ? `${SETTING_NAMES[k]} changed`
              : `${SETTING_NAMES[k]} ${String(b.settings[k])} then, ${String(p.settings[k])} now`,
          )
          .join('; ')}`,
      );
  }
  return problems;
}
