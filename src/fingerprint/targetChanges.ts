import type { Logger } from 'pino';
import { ChangeComparison, type Comparison, type SampleFigures } from './changeComparison.js';
import { fingerprintOfReads, identitySecrets, readsOff, type IdentityTarget } from './fetchIdentity.js';
import type { FingerprintCache, IdentityFetchOptions } from './fingerprintCache.js';
import { describeChanges, type Fingerprint, type ServedFields } from './normalizeFingerprint.js';
import { type FingerprintSeen, TargetFingerprints } from './targetFingerprints.js';

/** How to read a target's identity after one of its runs. */
export interface IdentityRead<D> {
  /** The target as the reads address it (base URL, model, headers with the key); called only when a read is due. */
  identity(): Promise<IdentityTarget>;
  /** What the run's successful responses said served them. */
  served: readonly ServedFields[];
  io: Omit<IdentityFetchOptions<D>, 'infoPath'>;
}

/** What a run told about its target: the fingerprint known after it, and the comparisons across the target's last change. */
export interface RunIdentity {
  /** Absent when no fingerprint was read (no cache, shutting down, a read that threw). */
  fingerprint?: Fingerprint;
  /** What this run's fingerprint said: a first one, the same, or a change (absent with no fingerprint). */
  seen?: FingerprintSeen;
  /** When the fingerprint was taken (ms since the epoch; absent with no fingerprint). */
  atMs?: number;
  /** Every pair of the target with a comparison, after this run's samples joined theirs. */
  comparisons: Comparison[];
  /** The target's configured model (the info series carries it beside the one its answers named). */
  model?: string;
}

/**
 * Each target's known fingerprint, its changes and the before/after comparison of its pairs: one
 * run at a time, after the run. A change is logged and opens a comparison of each pair of the target.
 */
export class TargetChanges<D = unknown> {
  private readonly identities = new TargetFingerprints();
  private readonly comparisons = new ChangeComparison();
  /** Each target's configured model as of its last run, to remove its info series by its labels. */
  private readonly models = new Map<string, string>();

  constructor(
    private readonly cache: FingerprintCache<D> | null,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /**
   * After a run of `probe` on `target`: its fingerprint (never fails: a failed read is a line of
   * `unavailable`, an error thrown here is logged and the run kept without one), then the run's
   * samples added to its pair's comparison. `read` null: no fingerprint this time (shutting down).
   * A target with `fingerprintReads: false` is sent nothing: its fingerprint is what the run's
   * answers said (model, system_fingerprint, server and version headers), so a change they show
   * is still seen.
   */
  async afterRun(
    target: { name: string; probes: readonly string[]; model?: string; fingerprintReads?: boolean },
    probe: string,
    figures: readonly SampleFigures[],
    read: IdentityRead<D> | null,
  ): Promise<RunIdentity> {
    const out: RunIdentity = { comparisons: [], ...(target.model !== undefined ? { model: target.model } : {}) };
    if (target.model !== undefined) this.models.set(target.name, target.model);
    if (this.cache && read) {
      try {
        const identity = await read.identity();
        const fresh =
          target.fingerprintReads === false
            ? fingerprintOfReads(read.served, readsOff(), identitySecrets(identity))
            : await this.cache.fingerprint(target.name, identity, read.served, read.io);
        const atMs = this.now();
        const seen = this.identities.observe(target.name, fresh, atMs);
        out.fingerprint = seen.known;
        out.seen = seen;
        out.atMs = atMs;
        if (seen.kind === 'changed') {
          const what = describeChanges(seen.changes);
          this.logger.warn(
            { target: target.name, changes: seen.changes, before: seen.previous.hash, after: seen.known.hash },
            `target ${target.name} changed: ${what}`,
          );
          this.comparisons.markChange(target.name, atMs, what);
        }
      } catch (err) {
        this.logger.error({ target: target.name, err: (err as Error).message }, 'could not read the fingerprint; the run is kept');
      }
    }
    this.comparisons.record(target.name, probe, figures);
    for (const name of target.probes) {
      const c = this.comparisons.comparison(target.name, name);
      if (c) out.comparisons.push(c);
    }
    return out;
  }

  /** The comparison across the last change of the pair's target; null before any change. */
  comparison(target: string, probe: string): Comparison | null {
    return this.comparisons.comparison(target, probe);
  }

  /** Every pair's comparison across its target's last change. */
  all(): Comparison[] {
    return this.comparisons.all();
  }

  /** The target's known fingerprint and when it last changed (ms); null before its first run. */
  fingerprintOf(target: string): ReturnType<TargetFingerprints['get']> {
    return this.identities.get(target);
  }

  /** Forgets a pair's comparison (removed by a reload). */
  forget(target: string, probe: string): void {
    this.comparisons.forget(target, probe);
  }

  /**
   * Forgets a target's identity and comparisons (removed, or pointed at another baseUrl or model:
   * what answers there next is a first fingerprint, not a change). Returns the fingerprint it
   * knew (with the model configured then) and the probes whose comparisons it dropped, so that
   * their series can go too.
   */
  forgetTarget(target: string): { known: Fingerprint | null; model: string | null; probes: string[] } {
    const known = this.identities.get(target)?.fingerprint ?? null;
    const model = this.models.get(target) ?? null;
    this.identities.forget(target);
    this.models.delete(target);
    this.cache?.forget(target);
    return { known, model, probes: this.comparisons.forgetTarget(target) };
  }
}
