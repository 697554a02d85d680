/**
 * The response headers that say what answered: `server` and any header whose name says it is a
 * version (`x-version`, `openai-version`, `x-vllm-version`...). Bounded in count and length, so
 * a server cannot grow a run's record with them; values are never used as URLs.
 */

/** At most this many identity headers are kept of one response. */
export const IDENTITY_HEADERS_MAX = 8;
/** A longer value is cut. */
export const IDENTITY_HEADER_MAX_CHARS = 200;

const IDENTITY_NAME = /^(server|x-powered-by)$|version/;

export function identityHeaders(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  let kept = 0;
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (!IDENTITY_NAME.test(name) || rawValue === undefined) continue;
    const value = (Array.isArray(rawValue) ? rawValue.join(', ') : rawValue).trim();
    if (value === '') continue;
    out[name] = value.slice(0, IDENTITY_HEADER_MAX_CHARS);
    if (++kept >= IDENTITY_HEADERS_MAX) break;
  }
  return out;
}
