import { DEFAULTS } from './defaults.js';
import { targetNameOfUrl } from './targetNameOfUrl.js';
import { validateConfig, type ConfigEnv, type ConfigResult, type ValidateOptions } from './validateConfig.js';

/**
 * The config used when no file is named and OPENAI_BASE_URL is set, following the
 * usual OpenAI-compatible tool conventions:
 *   OPENAI_BASE_URL   the endpoint, e.g. http://127.0.0.1:8000/v1 (required)
 *   COHERENCY_MODEL   the model to probe; wins over OPENAI_MODEL so a shared
 *   OPENAI_MODEL      OPENAI_MODEL can be overridden for this tool alone (without either,
 *                     serve probes the one model the endpoint lists)
 *   OPENAI_API_KEY    optional; when set (non-empty) it is sent as Authorization: Bearer
 *   OPENAI_API_KEY_FILE  optional, instead of OPENAI_API_KEY: a file holding the key
 *                     (a mounted secret), read at each run
 *   COHERENCY_AUTH_TOKEN  optional; protects /probe, /runs and /-/reload (see validateConfig)
 *   COHERENCY_STORAGE_DIR optional; where failing runs are kept (default data/runs under the
 *                     working directory; the container image sets its volume)
 * One target named after the endpoint's host (targetNameOfUrl: llm-staging-example for
 * https://llm.staging.example/v1) runs the probes in DEFAULTS.envFallback (short every
 * 5 minutes, long every 30 minutes). Server and simulator keep their defaults.
 * `servedModel`: the model when neither model variable is set, the one the endpoint's /models
 * lists (serve reads it: daemon/servedModel.ts); the variables win over it.
 */
export function configFromEnv(env: ConfigEnv, options: ValidateOptions = {}, servedModel?: string): ConfigResult {
  const errors: string[] = [];
  const baseUrl = env['OPENAI_BASE_URL']?.trim() ?? '';
  if (baseUrl === '') errors.push('OPENAI_BASE_URL: is not set');

  const modelVar = envModelVar(env);
  if (modelVar === null && servedModel === undefined) {
    errors.push('OPENAI_MODEL: is not set (set OPENAI_MODEL or COHERENCY_MODEL to the model to probe)');
  }
  const keyFile = env['OPENAI_API_KEY_FILE']?.trim() ?? '';
  if (keyFile !== '' && nonEmpty(env['OPENAI_API_KEY'])) {
    errors.push('OPENAI_API_KEY_FILE: set either OPENAI_API_KEY or OPENAI_API_KEY_FILE, not both');
  }
  if (errors.length > 0) return { ok: false, errors };

  const target: Record<string, unknown> = {
    name: targetNameOfUrl(baseUrl, DEFAULTS.envFallback.targetName),
    baseUrl,
    model: modelVar === null ? servedModel : env[modelVar],
  };
  if (nonEmpty(env['OPENAI_API_KEY'])) target['apiKeyEnv'] = 'OPENAI_API_KEY';
  if (keyFile !== '') target['apiKeyFile'] = keyFile;

  const result = validateConfig({ targets: [target], probes: DEFAULTS.envFallback.probes.map((p) => ({ ...p })) }, env, options);
  if (result.ok) return result;
  // Name the variable the user set, not the path of the object built from it.
  const renames: [string, string][] = [
    ['targets[0].baseUrl', 'OPENAI_BASE_URL'],
    ['targets[0].model', modelVar ?? 'OPENAI_MODEL'],
    ['targets[0].apiKeyFile', 'OPENAI_API_KEY_FILE'],
  ];
  return {
    ok: false,
    errors: result.errors.map((e) => {
      for (const [from, to] of renames) if (e.startsWith(`${from}:`)) return to + e.slice(from.length);
      return e;
    }),
  };
}

/** The variable that names the model to probe (COHERENCY_MODEL wins), or null when neither is set. */
export function envModelVar(env: ConfigEnv): 'COHERENCY_MODEL' | 'OPENAI_MODEL' | null {
  return nonEmpty(env['COHERENCY_MODEL']) ? 'COHERENCY_MODEL' : nonEmpty(env['OPENAI_MODEL']) ? 'OPENAI_MODEL' : null;
}

function nonEmpty(v: string | undefined): v is string {
  return v !== undefined && v.trim() !== '';
}
