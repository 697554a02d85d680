import { createHash } from 'node:crypto';
import type { ProbeConfig } from '../config/types.js';
import type { ProbeSettings } from './baselineFormat.js';

/** A short, stable digest of a JSON value (keys sorted), for settings too long or too private to keep. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value), 'utf8').digest('hex').slice(0, 16);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** The request seed of a probe (extraBody.seed when it is an integer), or null. */
export function seedOf(probe: Pick<ProbeConfig, 'extraBody'>): number | null {
  const seed = probe.extraBody['seed'];
  return typeof seed === 'number' && Number.isInteger(seed) ? seed : null;
}

/** What of a probe decides its requests and verdicts; a schedule or a timeout does not. */
export function probeSettings(probe: ProbeConfig): ProbeSettings {
  return {
    kind: probe.kind ?? 'generation',
    maxTokens: probe.maxTokens,
    temperature: probe.temperature,
    temperatures: probe.temperatures === null ? null : probe.temperatures.join(','),
    samples: probe.samples,
    minTokens: probe.minTokens,
    seed: seedOf(probe),
    messages: digestOf(probe.messages),
    extraBody: digestOf(probe.extraBody),
    thresholds: digestOf(probe.thresholds),
    kindSettings: digestOf({
      recall: probe.recall,
      contamination: probe.contamination,
      conformance: probe.conformance,
      expect: probe.expect,
    }),
  };
}
