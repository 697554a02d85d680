import { failedReads, fingerprintOfReads, identitySecrets, type IdentityReads, type IdentityTarget } from './fetchIdentity.js';
import type { Fingerprint, InfoPath, ServedFields } from './normalizeFingerprint.js';

/**
 * The reads of each target's /models and info endpoint, kept between runs: read again at most
 * every `refreshMs`, and at once when a response names another server, model or
 * system_fingerprint than the last run's did (a change is then seen with its details in the
 * same run). One entry per configured target.
 */

/** How long a target's reads are kept by default. */
export const FINGERPRINT_REFRESH_MS = 5 * 60 * 1000;

/** What a read of one target takes besides the target: the info path to try, and the target's own I/O (its TLS pool, the shutdown signal). */
export interface IdentityFetchOptions<D = unknown> {
  infoPath: InfoPath | null;
  dispatcher?: D;
  signal?: AbortSignal;
}

export type IdentityFetch<D = unknown> = (target: IdentityTarget, options: IdentityFetchOptions<D>) => Promise<IdentityReads>;

interface Entry {
  reads: IdentityReads;
  atMs: number;
  /** What the responses of the last run said, to see a change in them. */
  served: string;
}

/** What of a run's responses makes the cached reads stale when it changes. */
function servedKey(served: readonly ServedFields[]): string {
  const last = (pick: (s: ServedFields) => string | null | undefined) => {
    for (let i = served.length - 1; i >= 0; i--) {
      const v = pick(served[i] as ServedFields);
      if (v) return v;
    }
    return null;
  };
  return JSON.stringify([last((s) => s.headers['server']), last((s) => s.model), last((s) => s.systemFingerprint)]);
}

export class FingerprintCache<D = unknown> {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<IdentityReads>>();

  constructor(
    private readonly fetch: IdentityFetch<D>,
    private readonly now: () => number,
    private readonly refreshMs = FINGERPRINT_REFRESH_MS,
  ) {}

  /** The fingerprint of a run: its responses' fields with the target's reads (fresh or cached). Never throws. */
  async fingerprint(
    name: string,
    target: IdentityTarget,
    served: readonly ServedFields[],
    io: Omit<IdentityFetchOptions<D>, 'infoPath'> = {},
  ): Promise<Fingerprint> {
    const key = servedKey(served);
    let entry = this.entries.get(name);
    const stale = !entry || this.now() - entry.atMs >= this.refreshMs || (served.length > 0 && key !== entry.served);
    if (stale) {
      // two runs of one target that end together share one read
      let read = this.pending.get(name);
      if (!read) {
        const infoPath = entry?.reads.info?.path ?? null;
        read = Promise.resolve()
          .then(() => this.fetch(target, { ...io, infoPath }))
          .catch(failedReads)
          .finally(() => this.pending.delete(name));
        this.pending.set(name, read);
      }
      const reads = await read;
      entry = { reads, atMs: this.now(), served: served.length > 0 ? key : (entry?.served ?? key) };
      this.entries.set(name, entry);
    } else if (entry && served.length > 0) entry.served = key;
    const reads = (entry as Entry).reads;
    return fingerprintOfReads(served, reads, identitySecrets(target));
  }

  /** Forgets a target (removed by a reload). */
  forget(name: string): void {
    this.entries.delete(name);
  }
}
