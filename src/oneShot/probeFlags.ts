import { DEFAULTS } from '../config/defaults.js';
import { PROBE_KINDS_NAMES, type ProbeKind } from '../config/probeKindTypes.js';
import type { Config } from '../config/types.js';
import { validateConfig, type ConfigEnv, type ConfigResult } from '../config/validateConfig.js';

/** The flags of `probe` as node:util parseArgs gives them. */
export type ProbeFlagValues = Record<string, string | boolean | string[] | undefined>;

/** One target x probe to run. */
export interface ProbePair {
  target: string;
  probe: string;
}

/** The flags that build a config without a file, and the config path each one fills. */
const FLAG_PATHS: [string, string][] = [
  ['targets[0].baseUrl', '--base-url (or OPENAI_BASE_URL)'],
  ['targets[0].model', '--model (or OPENAI_MODEL)'],
  ['targets[0].api', '--api'],
  ['targets[0].apiKeyEnv', '--api-key-env'],
  ['probes[0].prompt', '--prompt'],
  ['probes[0].maxTokens', '--max-tokens'],
  ['probes[0].minTokens', '--min-tokens'],
  ['probes[0].temperature', '--temperature'],
  ['probes[0].samples', '--samples'],
  ['probes[0].extraBody', '--seed'],
  ['probes[0].expect.language', '--expect-language'],
  ['probes[0].expect', '--expect-language'],
  ['probes[0].checks', '--checks'],
  ['targets[0].modelAliases', '--model-alias'],
];

/** Flags that only make sense without --config. */
export const ENDPOINT_FLAGS = [
  'base-url',
  'model',
  'api',
  'api-key-env',
  'prompt',
  'prompt-file',
  'max-tokens',
  'min-tokens',
  'temperature',
  'samples',
  'seed',
  'expect-language',
  'reasoning',
  'checks',
  'model-alias',
] as const;

/** The probe kind of --kind (generation when absent), or the usage error. */
export function kindFlag(values: ProbeFlagValues): { ok: true; kind: ProbeKind | null } | { ok: false; error: string } {
  const v = values['kind'];
  if (v === undefined) return { ok: true, kind: null };
  if (typeof v === 'string' && (PROBE_KINDS_NAMES as readonly string[]).includes(v)) return { ok: true, kind: v as ProbeKind };
  return { ok: false, error: `--kind: one of ${PROBE_KINDS_NAMES.join(', ')}, got "${String(v).slice(0, 40)}"` };
}

/** The model --model or the environment names (COHERENCY_MODEL wins over OPENAI_MODEL); undefined: none, /models is read. */
export function modelOfFlags(values: ProbeFlagValues, env: ConfigEnv): string | undefined {
  const flag = values['model'];
  return (typeof flag === 'string' ? flag : undefined) ?? nonEmpty(env['COHERENCY_MODEL']) ?? nonEmpty(env['OPENAI_MODEL']);
}

/**
 * The config of `probe --base-url URL --model M ...`: one target named "cli" and one probe
 * named "probe" (the long probe of the environment fallback, with the flags over it), built
 * through the same validator as a file, so every problem is reported at once, each under the
 * flag that set it. OPENAI_BASE_URL, OPENAI_MODEL (COHERENCY_MODEL wins) and OPENAI_API_KEY
 * fill in what the flags leave out, as for serve; `servedModel`, the one model /models lists, when
 * neither --model nor a variable names one (probeCommand reads it).
 */
export function configFromFlags(
  values: ProbeFlagValues,
  env: ConfigEnv,
  promptFileText: string | null,
  servedModel?: string,
): ConfigResult {
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const errors: string[] = [];
  const baseUrl = str('base-url') ?? nonEmpty(env['OPENAI_BASE_URL']);
  const model = modelOfFlags(values, env) ?? servedModel;
  if (baseUrl === undefined) errors.push('--base-url: is required without --config (or set OPENAI_BASE_URL)');
  if (model === undefined) errors.push('--model: is required without --config (or set OPENAI_MODEL)');
  if (str('prompt') !== undefined && str('prompt-file') !== undefined) errors.push('--prompt, --prompt-file: give one, not both');
  if (errors.length) return { ok: false, errors };
  const apiKeyEnv = str('api-key-env') ?? (nonEmpty(env['OPENAI_API_KEY']) !== undefined ? 'OPENAI_API_KEY' : undefined);
  const kind = kindFlag(values);
  if (!kind.ok) return { ok: false, errors: [kind.error] };
  const long = DEFAULTS.envFallback.probes[1];
  let probe: Record<string, unknown> = {
    name: 'probe',
    prompt: promptFileText ?? str('prompt') ?? long.prompt,
    maxTokens: long.maxTokens,
    minTokens: long.minTokens,
  };
  if (kind.kind !== null && kind.kind !== 'generation') {
    // the other kinds write their own messages: no prompt, and the conformance probe's own token limit
    const given = str('prompt') !== undefined ? '--prompt' : str('prompt-file') !== undefined ? '--prompt-file' : null;
    if (given) return { ok: false, errors: [`${given}: a ${kind.kind} probe writes its own messages`] };
    const conformance = DEFAULTS.envFallback.probes[2];
    probe = { name: kind.kind, kind: kind.kind, maxTokens: kind.kind === 'conformance' ? conformance.maxTokens : long.maxTokens };
  }
  const checks = str('checks');
  if (checks !== undefined) probe['checks'] = checks.split(',').map((c) => c.trim());
  for (const [flag, key] of [
    ['max-tokens', 'maxTokens'],
    ['min-tokens', 'minTokens'],
    ['temperature', 'temperature'],
    ['samples', 'samples'],
  ] as const) {
    const v = str(flag);
    if (v !== undefined) probe[key] = numberOrText(v);
  }
  // a --max-tokens below the fallback's minTokens would be refused for a value the user never gave
  if (
    str('min-tokens') === undefined &&
    typeof probe['maxTokens'] === 'number' &&
    probe['maxTokens'] < long.minTokens &&
    'minTokens' in probe
  )
    probe['minTokens'] = 0;
  const expectLanguage = str('expect-language');
  if (expectLanguage !== undefined) probe['expect'] = { language: expectLanguage };
  const seed = str('seed');
  if (seed !== undefined) {
    if (!/^-?\d{1,15}$/.test(seed.trim())) return { ok: false, errors: [`--seed: an integer, got "${seed.slice(0, 40)}"`] };
    probe['extraBody'] = { seed: Number(seed) };
  }
  const aliases = Array.isArray(values['model-alias']) ? (values['model-alias'] as string[]) : [];
  const raw = {
    targets: [
      {
        name: 'cli',
        baseUrl,
        model,
        ...(str('api') !== undefined ? { api: str('api') } : {}),
        ...(apiKeyEnv !== undefined ? { apiKeyEnv } : {}),
        ...(values['reasoning'] === true ? { reasoning: true } : {}),
        ...(aliases.length > 0 ? { modelAliases: aliases } : {}),
      },
    ],
    probes: [probe],
  };
  const result = validateConfig(raw, env);
  if (result.ok) return result;
  return {
    ok: false,
    errors: result.errors.map((e) => {
      for (const [path, flag] of FLAG_PATHS) if (e.startsWith(`${path}:`)) return flag + e.slice(path.length);
      return e;
    }),
  };
}

/**
 * The target x probe pairs to run: every probe each target names (targets[].probes), narrowed
 * to --target, --probe and --kind when given. A name that is not in the config is an error.
 */
export function selectPairs(
  config: Config,
  targets: readonly string[],
  probes: readonly string[],
  kind: ProbeKind | null = null,
): { ok: true; pairs: ProbePair[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  for (const t of targets)
    if (!config.targets.some((c) => c.name === t))
      errors.push(`--target ${t}: no such target (targets: ${config.targets.map((c) => c.name).join(', ')})`);
  for (const p of probes)
    if (!config.probes.some((c) => c.name === p))
      errors.push(`--probe ${p}: no such probe (probes: ${config.probes.map((c) => c.name).join(', ')})`);
  if (errors.length) return { ok: false, errors };
  const pairs: ProbePair[] = [];
  const ofKind = (p: string) => kind === null || (config.probes.find((c) => c.name === p)?.kind ?? 'generation') === kind;
  for (const t of config.targets) {
    if (targets.length && !targets.includes(t.name)) continue;
    for (const p of t.probes) if ((!probes.length || probes.includes(p)) && ofKind(p)) pairs.push({ target: t.name, probe: p });
  }
  if (!pairs.length)
    return {
      ok: false,
      errors: [
        `nothing to run: no selected target runs a selected probe${kind !== null ? ` of kind ${kind}` : ''} (see targets[].probes${kind !== null ? ' and probes[].kind' : ''})`,
      ],
    };
  return { ok: true, pairs };
}

function numberOrText(v: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}
