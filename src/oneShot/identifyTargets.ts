import type { HttpFn, HttpOptions } from '../client/httpExchange.js';
import type { ServedBy } from '../client/streamTypes.js';
import type { TargetConfig } from '../config/types.js';
import {
  failedReads,
  fetchIdentity,
  fingerprintOfReads,
  identitySecrets,
  readsOff,
  type IdentityReads,
} from '../fingerprint/fetchIdentity.js';
import { identityTargetOf } from '../probe/identityTargetOf.js';
import type { Fingerprint } from '../fingerprint/normalizeFingerprint.js';
import { VERSION } from '../version.js';

/** The longest all of a target's reads may take together (each read has its own shorter timeout too). */
export const IDENTIFY_TIMEOUT_MS = 10_000;

export interface IdentifyDeps {
  http: HttpFn;
  env: Record<string, string | undefined>;
  readKeyFile?: (path: string) => Promise<string>;
  /** The configuration's other secrets (configSecrets.ts), redacted besides each target's own. */
  secrets?: readonly string[];
  dispatcherFor?: (target: TargetConfig) => HttpOptions['dispatcher'] | undefined;
  timeoutMs?: number;
}

/** A target's fingerprint and the credentials its reads carried (to keep them out of anything written). */
export interface TargetIdentity {
  fingerprint: Fingerprint;
  secrets: string[];
}

/**
 * Reads each target's /models entry and info endpoint once, after a one-shot run, as the daemon
 * does (fetchIdentity, the headers of identityTargetOf, the target's TLS dispatcher), and
 * normalizes them with what the run's successful responses said (`served`); a target with
 * `fingerprintReads: false` is sent nothing and keeps the answers' fields alone. Never throws: a read
 * that fails, or all of a target's reads past `timeoutMs`, is a line of the fingerprint's
 * `unavailable`, and the run goes on.
 */
export async function identifyTargets(
  targets: readonly TargetConfig[],
  served: ReadonlyMap<string, readonly ServedBy[]>,
  deps: IdentifyDeps,
): Promise<Map<string, TargetIdentity>> {
  const timeoutMs = deps.timeoutMs ?? IDENTIFY_TIMEOUT_MS;
  const entries = await Promise.all(
    targets.map(async (target): Promise<[string, TargetIdentity]> => {
      const seen = served.get(target.name) ?? [];
      let reads: IdentityReads;
      let secrets: string[] = [...(deps.secrets ?? [])];
      try {
        const identity = await identityTargetOf(target, deps.env, deps.readKeyFile, deps.secrets);
        secrets = identitySecrets(identity);
        const dispatcher = deps.dispatcherFor?.(target);
        reads =
          target.fingerprintReads === false
            ? readsOff()
            : await fetchIdentity(identity, {
                http: deps.http,
                userAgent: `coherency-exporter/${VERSION}`,
                signal: AbortSignal.timeout(timeoutMs),
                ...(dispatcher ? { dispatcher } : {}),
              });
      } catch (err) {
        reads = failedReads(err as Error);
      }
      const fingerprint = fingerprintOfReads(seen, reads, secrets);
      return [target.name, { fingerprint, secrets }];
    }),
  );
  return new Map(entries);
}
