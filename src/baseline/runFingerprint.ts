import type { TargetConfig } from '../config/types.js';
import type { RunResult } from '../probe/probeTypes.js';
import type { Fingerprint } from './baselineFormat.js';

/** The base URL as the fingerprint keeps it: scheme, host, port and path; no credentials, no query (either may hold a key). */
export function originOf(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * What a one-shot run knows of a target from its config and its runs: its configured model and
 * origin, and from a conformance checklist's evidence the model its answers named and their
 * system_fingerprint. The target's fingerprint read after the run (fingerprintFields) is the
 * richer source and joins this record (joinFingerprints), winning where it has a value.
 */
export function runFingerprint(target: Pick<TargetConfig, 'model' | 'baseUrl'>, runs: readonly RunResult[]): Fingerprint {
  let answeredModel: string | null = null;
  let systemFingerprint: string | null = null;
  for (const run of runs)
    for (const sample of run.samples)
      for (const check of sample.outcome?.kind === 'conformance' ? sample.outcome.checks : []) {
        const e = check.evidence;
        if (check.check === 'models' && typeof e['answered'] === 'string' && e['answered'] !== '') answeredModel = e['answered'];
        if (check.check === 'fields') {
          const seen = [e['system_fingerprint'], e['completion system_fingerprint']].filter(
            (v): v is string => typeof v === 'string' && v !== '',
          );
          if (seen.length) systemFingerprint = [...new Set(seen.flatMap((s) => s.split(', ')))].join(', ');
        }
      }
  return { model: target.model, origin: originOf(target.baseUrl), answeredModel, systemFingerprint, server: null };
}
