import { MIN_SECRET_CHARS, secretsOf } from '../client/redactSecrets.js';
import type { Config } from '../config/types.js';
import { identityTargetOf } from './identityTargetOf.js';

/**
 * Every secret the configuration holds: each target's key (its apiKeyEnv value or apiKeyFile
 * read now, as its requests read it) and credential headers, the OTLP exporter's credential
 * headers, and the daemon's own bearer token. Redaction uses them on what every target sends
 * back, besides the target's own: targets behind one origin (one proxy with two virtual keys,
 * one server under two names, an upstream that logs its clients' keys) can echo each other's
 * keys, and no target may make the daemon show its token or the collector's credentials.
 *
 * Never throws: a key that cannot be read (a missing file, an empty or bad key) adds nothing,
 * and the run that needs it says why when it builds its own request.
 */
export async function configSecrets(
  config: Pick<Config, 'targets' | 'otlp' | 'server'>,
  env: Record<string, string | undefined>,
  readKeyFile?: (path: string) => Promise<string>,
): Promise<string[]> {
  const out = new Set<string>();
  const perTarget = await Promise.all(
    config.targets.map(async (t) => {
      try {
        return secretsOf((await identityTargetOf(t, env, readKeyFile)).headers);
      } catch {
        return [];
      }
    }),
  );
  for (const list of perTarget) for (const s of list) out.add(s);
  for (const s of secretsOf(config.otlp.headers)) out.add(s);
  const token = config.server.authToken?.trim() ?? '';
  if (token.length >= MIN_SECRET_CHARS) out.add(token);
  return [...out].sort((a, b) => b.length - a.length);
}

/** The secrets of the running configuration, as ProbeDeps.secrets takes them. */
export type SecretsOfConfig = () => Promise<readonly string[]>;

/**
 * How long the daemon keeps the configuration's secrets before reading them again: another
 * target's rotated key file is redacted after this at most (a target's own key is read with each
 * of its requests), and a run does not read every target's key file for each of its samples.
 */
export const CONFIG_SECRETS_MAX_AGE_MS = 30_000;

/**
 * The configuration's secrets read by `read` and kept for `maxAgeMs`; `clear` (a reload) makes
 * the next ask read them again. Asks while a read is under way share it.
 */
export function keptSecrets(
  read: () => Promise<string[]>,
  now: () => number,
  maxAgeMs = CONFIG_SECRETS_MAX_AGE_MS,
): { get: SecretsOfConfig; clear(): void } {
  let kept: Promise<readonly string[]> | null = null;
  let atMs = 0;
  return {
    get() {
      if (kept === null || now() - atMs >= maxAgeMs) {
        atMs = now();
        // configSecrets never throws; an injected reader that does must not fail every run
        kept = read().catch(() => []);
      }
      return kept;
    },
    clear() {
      kept = null;
    },
  };
}
