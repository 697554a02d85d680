import type { Config } from './types.js';

export const REDACTED = '<redacted>';

// Header names that carry credentials in the wild: Authorization, Proxy-Authorization,
// api-key (Azure), x-api-key (Anthropic-style proxies), X-Auth-Token, cookies, ...
const SECRET_NAME_RE = /auth|token|key|secret|password|passwd|cookie|session|credential|signature/i;
// extraBody is full of innocent *token* fields (min_tokens, skip_special_tokens), so a narrower rule.
const SECRET_BODY_FIELD_RE = /api[-_]?key|secret|password|passwd|credential|^auth|access[-_]?token|^token$/i;
// A value that is plainly a credential, whatever the header is called.
const SECRET_VALUE_RE = /^\s*(bearer|basic|token)\s+\S/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME_RE.test(name);
}

/**
 * A deep copy of the config that is safe to log or show on a debug page: server.authToken,
 * and header values (and extraBody fields) whose name or value looks like a credential,
 * and every otlp header value, become "<redacted>". apiKeyEnv and apiKeyFile stay: they are a variable name and a path;
 * the key itself is never in a Config.
 */
export function redactConfig(config: Config): Config {
  const copy = structuredClone(config);
  if (copy.server.authToken !== null) copy.server.authToken = REDACTED;
  for (const target of copy.targets) {
    for (const [name, value] of Object.entries(target.headers)) {
      if (isSecretName(name) || SECRET_VALUE_RE.test(value)) target.headers[name] = REDACTED;
    }
  }
  // a collector's headers are there for a token, whatever their names: none is shown
  if (copy.otlp) for (const name of Object.keys(copy.otlp.headers)) copy.otlp.headers[name] = REDACTED;
  for (const probe of copy.probes) {
    redactFields(probe.extraBody);
    // the model's 200 weights say nothing a reader needs: its path (verdictModel) stays
    delete probe.learnedModel;
  }
  return copy;
}

function redactFields(obj: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(obj)) {
    if (SECRET_BODY_FIELD_RE.test(name) || (typeof value === 'string' && SECRET_VALUE_RE.test(value))) obj[name] = REDACTED;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      redactFields(value as Record<string, unknown>);
    }
  }
}
