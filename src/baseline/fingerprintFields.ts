import type { Fingerprint as TargetFingerprint } from '../fingerprint/normalizeFingerprint.js';
import { redactText } from '../client/redactSecrets.js';
import type { Fingerprint } from './baselineFormat.js';

/** Fingerprint fields a baseline keeps but a comparison does not list: `hash` sums the others, `unavailable` says which reads failed. */
export const UNCOMPARED_FIELDS: ReadonlySet<string> = new Set(['hash', 'unavailable']);

/**
 * The target's normalized fingerprint (src/fingerprint) as a baseline's flat record of strings:
 * `server`, `version`, `answeredModel` (what the responses named), `modelRevision`,
 * `systemFingerprint`, `maxModelLen`, `ownedBy`, `settings.NAME` and `headers.NAME` (the
 * names diffFingerprints uses), `hash`, and `unavailable` (the reads that failed, joined; null
 * when none did). `created` is left out: servers stamp it per request. Every value goes through
 * `secrets` (the request's credentials, secretsOf): a server that echoes the key in a header
 * must not put it in the file. Pure.
 */
export function fingerprintFields(fp: TargetFingerprint, secrets: readonly string[]): Fingerprint {
  const fields: Record<string, string | number | null> = {
    server: fp.server,
    version: fp.version,
    answeredModel: fp.model,
    modelRevision: fp.modelRevision,
    systemFingerprint: fp.systemFingerprint,
    maxModelLen: fp.maxModelLen,
    ownedBy: fp.ownedBy,
    ...Object.fromEntries(Object.entries(fp.settings).map(([k, v]) => [`settings.${k}`, v])),
    ...Object.fromEntries(Object.entries(fp.headers).map(([k, v]) => [`headers.${k}`, v])),
    hash: fp.hash,
    unavailable: fp.unavailable.length ? fp.unavailable.join('; ') : null,
  };
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === null ? null : redactText(String(v), secrets)]));
}

/**
 * A baseline fingerprint of what the run saw (runFingerprint) joined with the target's own
 * (fingerprintFields): the target's fields win where they hold a value, the run's stay where
 * the target's reads gave none (a conformance probe's answered model when /models failed).
 */
export function joinFingerprints(run: Fingerprint, target: Fingerprint | undefined): Fingerprint {
  if (!target) return run;
  const out: Fingerprint = { ...run };
  for (const [k, v] of Object.entries(target)) out[k] = v ?? out[k] ?? null;
  return out;
}
