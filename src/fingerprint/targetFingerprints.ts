import { diffFingerprints, mergeFingerprint, type FieldChange, type Fingerprint } from './normalizeFingerprint.js';

/** What a run's fingerprint told about its target. */
export type FingerprintSeen =
  /** The target's first fingerprint since start. */
  | { kind: 'first'; known: Fingerprint }
  /** Nothing known changed (fields may have been learned). */
  | { kind: 'same'; known: Fingerprint }
  | { kind: 'changed'; known: Fingerprint; previous: Fingerprint; changes: FieldChange[] };

/**
 * The known fingerprint of each target (merged over its runs: a failed read keeps what was
 * known) and when it last changed. One entry per configured target.
 */
export class TargetFingerprints {
  private readonly known = new Map<string, { fp: Fingerprint; changedAtMs: number | null }>();

  observe(target: string, fresh: Fingerprint, atMs: number): FingerprintSeen {
    const entry = this.known.get(target);
    if (!entry) {
      this.known.set(target, { fp: fresh, changedAtMs: null });
      return { kind: 'first', known: fresh };
    }
    const merged = mergeFingerprint(entry.fp, fresh);
    const changes = diffFingerprints(entry.fp, merged);
    const previous = entry.fp;
    entry.fp = merged;
    if (changes.length === 0) return { kind: 'same', known: merged };
    entry.changedAtMs = atMs;
    return { kind: 'changed', known: merged, previous, changes };
  }

  get(target: string): { fingerprint: Fingerprint; changedAtMs: number | null } | null {
    const e = this.known.get(target);
    return e ? { fingerprint: e.fp, changedAtMs: e.changedAtMs } : null;
  }

  forget(target: string): void {
    this.known.delete(target);
  }
}
