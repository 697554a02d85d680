import type { TargetConfig } from '../config/types.js';
import { apiKeyOf } from './buildChatRequest.js';
import { VERSION } from '../version.js';
import type { IdentityTarget } from '../fingerprint/fetchIdentity.js';

/**
 * A target as fetchIdentity reads it: its base URL, its model and the headers of its chat
 * requests (the user agent, its configured headers, the key as a bearer token). A key that
 * cannot be read leaves the authorization out; the /models read then says why it failed.
 * The daemon and the one-shot probe both read identities with these headers. `others`: the
 * configuration's other secrets (configSecrets.ts), redacted from the reads besides the target's own.
 */
export async function identityTargetOf(
  target: TargetConfig,
  env: Record<string, string | undefined>,
  readKeyFile?: (path: string) => Promise<string>,
  others?: readonly string[],
): Promise<IdentityTarget> {
  const headers: Record<string, string> = { 'user-agent': `coherency-exporter/${VERSION}`, ...target.headers };
  const key = await apiKeyOf(target, env, readKeyFile).catch(() => null);
  if (key) headers['authorization'] = `Bearer ${key}`;
  return { baseUrl: target.baseUrl, model: target.model, headers, ...(others && others.length > 0 ? { secrets: others } : {}) };
}
