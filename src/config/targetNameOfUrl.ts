/** At most this many characters: a DNS label's length, plenty for a name shown in labels and pages. */
const MAX_NAME_CHARS = 63;

/**
 * The name of the one target of the environment fallback (configFromEnv): its host, made into a
 * valid target name (lowercase letters, digits, `_` and `-`): https://llm.staging.example/v1
 * gives `llm-staging-example`, http://127.0.0.1:8000/v1 gives `127-0-0-1`. The port and the path
 * are left out; `fallback` when the URL has no usable host (validation then says what is wrong).
 */
export function targetNameOfUrl(baseUrl: string, fallback: string): string {
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname;
  } catch {
    return fallback;
  }
  const name = host
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_CHARS)
    .replace(/-+$/, '');
  return name === '' ? fallback : name;
}
