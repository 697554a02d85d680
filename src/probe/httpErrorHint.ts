import type { TargetConfig } from '../config/types.js';
import { withoutQuery } from '../config/withoutQuery.js';

/**
 * What an HTTP error of the probed route (chat, completions or responses) should tell the operator beyond the status and the
 * server's words: for a 404 the URL tried, and the missing /v1 that usually causes it; for a
 * 401 or 403 whether a key was sent and where it came from (never the key itself). '' when
 * there is nothing to add.
 */
export function httpErrorHint(
  status: number,
  requestUrl: string,
  target: Pick<TargetConfig, 'apiKeyEnv' | 'apiKeyFile' | 'headers'>,
  keySent: boolean,
): string {
  if (status === 404) {
    const url = withoutQuery(requestUrl);
    let path = '';
    try {
      path = new URL(requestUrl).pathname;
    } catch {
      return `; tried POST ${url}`;
    }
    if (/(^|\/)v\d+\//.test(path)) return `; tried POST ${url}`;
    const base = requestUrl.split('?')[0]!.replace(/\/(chat\/completions|completions|responses)$/, '');
    return `; tried POST ${url}: the base URL has no /v1, under which OpenAI-compatible servers answer (try baseUrl ${base}/v1)`;
  }
  if (status === 401 || status === 403) {
    const header = Object.keys(target.headers).some((h) => h.toLowerCase() === 'authorization' || h.toLowerCase() === 'api-key');
    if (keySent) return `; a key was sent, from ${keySource(target)}: check that it is valid for this server and model`;
    if (header) return "; no apiKeyEnv or apiKeyFile key was sent, only the credentials in the target's headers: check them";
    if (target.apiKeyEnv) return `; no key was sent: $${target.apiKeyEnv} (apiKeyEnv) is empty or unset`;
    return '; no key was sent: the target names no apiKeyEnv or apiKeyFile (from the environment: OPENAI_API_KEY or OPENAI_API_KEY_FILE; probe --base-url: --api-key-env)';
  }
  return '';
}

/** Where a target's key comes from, as a person would look for it. */
function keySource(target: Pick<TargetConfig, 'apiKeyEnv' | 'apiKeyFile'>): string {
  if (target.apiKeyEnv) return `$${target.apiKeyEnv}`;
  if (target.apiKeyFile) return `the file ${target.apiKeyFile}`;
  return 'the target';
}
