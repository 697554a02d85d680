import { isIP } from 'node:net';
/**
 * Turns a plain JS value (parsed YAML, or the env fallback's object) into a Config,
 * or into the list of every problem found. Never throws for bad input.
 *
 * readSection enforces everything configSpec.ts declares and applies the defaults; this
 * module keeps what a declaration cannot say, as hooks run on each section once read:
 * host names and CIDR ranges, the auth token from the environment, unique names, URLs,
 * environment variables and files named by keys, cron expressions, header values, the
 * verdict model file, and the arithmetic between keys.
 *
 * Messages name the path and say what is wrong; they never echo header values,
 * URLs, tokens or environment values, which may hold secrets. File paths are shown
 * only when they plainly are paths (see describeFile).
 */
import { validate as validateCron } from 'node-cron';
import type { VerdictModel } from '../core/verdictModel.js';
import { checkReadableFile, type FileCheck } from './checkReadableFile.js';
import { CA_FILE_MAX_BYTES } from './readCaFile.js';
import { checkWritableDir, type DirCheck } from './checkWritableDir.js';
import { CONFIG_KEYS, CONFIG_SPEC, fieldAccepts, fieldMessage, fieldSpec } from './configSpec.js';
import { CRON_FORMAT, cronProblem } from './cronProblem.js';
import { DEFAULTS } from './defaults.js';
import { isObj, keyPath, type Obj, present, readSection } from './readSection.js';
import { readVerdictModelFileSync } from './readVerdictModelFile.js';
import type { SectionValue } from './specTypes.js';
import type { Config, ProbeConfig, TargetConfig } from './types.js';
import type { ConfigEnv, ConfigResult, ValidateOptions } from './validateOptions.js';
import { probeKindSettings } from './validateProbeKind.js';
import { resolveOtlp } from './otlpConfig.js';

export { CONFIG_KEYS } from './configSpec.js';
export type { ConfigEnv, ConfigResult, ValidateOptions } from './validateOptions.js';

const NAME_RE = new RegExp(CONFIG_SPEC.probe.fields.name.pattern);
const CONVENTIONAL_ENV_NAME_RE = /^[A-Z][A-Z0-9_]{0,63}$/;
// Absolute or ./ ../ relative, one line, no blanks: a pasted key or PEM block never looks like this.
const SHOWABLE_PATH_RE = /^\.{0,2}\/[^\s\x00-\x1f\x7f]*$/;
const TOKEN = fieldSpec('server', 'authToken');

/** Collects problems as "path: message" sentences. */
class Problems {
  readonly list: string[] = [];
  readonly warnings: string[] = [];
  constructor(private readonly missingSecrets: 'error' | 'warning' = 'error') {}
  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }
  /** A secret the environment lacks: an error, or a warning where the caller asked for one. */
  missingSecret(path: string, message: string): void {
    if (this.missingSecrets === 'warning') this.warnings.push(`${path}: ${message}`);
    else this.add(path, message);
  }
}

/** What the hooks share: the problems, the caller's environment and file system, the names seen so far. */
interface Context {
  p: Problems;
  env: ConfigEnv;
  checkFile: FileCheck;
  readModel: (file: string) => VerdictModel;
  probeNames: readonly string[];
  seen: { targets: Map<string, number>; probes: Map<string, number> };
}

/** An IP address (v4 or v6, brackets allowed) or a host name of RFC 1123 labels. */
function isHost(v: string): boolean {
  if (isIP(v.replace(/^\[(.*)\]$/, '$1')) !== 0) return true;
  return v.length <= 253 && v.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}

/** A listen address: checked for its form here; whether it resolves and can be bound is known only at start. */
function checkHost(host: string, at: string, p: Problems): string {
  if (!isHost(host))
    p.add(at, `must be an IP address or a host name (letters, digits, '-' and '.'), got ${JSON.stringify(host.slice(0, 60))}`);
  return host;
}

/** An IPv4 or IPv6 address, optionally with a /prefix of a length that fits it. */
function checkCidr(entry: string, at: string, p: Problems): string | undefined {
  const slash = entry.indexOf('/');
  const family = isIP(slash < 0 ? entry : entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  if (family !== 0 && (slash < 0 || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)))) return entry;
  p.add(at, `must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got ${JSON.stringify(entry.slice(0, 60))}`);
}

/** The token where server.authToken is left out: the environment variable (for a Kubernetes Secret), held to the key's declaration. */
function envToken(env: ConfigEnv, p: Problems): string | null {
  const name = DEFAULTS.authTokenEnv;
  const t = env[name]?.trim();
  // Fail closed: an empty variable is more likely a broken Secret than a wish for no auth.
  if (t === '') p.add(name, 'is set but empty (unset it to run without auth)');
  else if (t !== undefined && !fieldAccepts(TOKEN, t)) p.add(name, fieldMessage(TOKEN));
  else return t ?? null;
  return null;
}

/**
 * storage.dir where the file leaves it out: $COHERENCY_STORAGE_DIR (the container image's volume),
 * held to the checks of a dir in the file; unset or empty: undefined, the default.
 */
function envStorageDir(env: ConfigEnv, checkDir: DirCheck, p: Problems): string | undefined {
  const name = DEFAULTS.storageDirEnv;
  const dir = env[name]?.trim();
  if (dir === undefined || dir === '') return undefined;
  const problem = checkDir(dir);
  if (problem) p.add(name, `"${dir}" ${problem} (a config file's storage.dir wins over it; storage.dir: null keeps runs in memory only)`);
  return dir;
}

/** Names are unique within their list; the first one keeps it. */
function checkUniqueName(name: string, at: string, list: 'targets' | 'probes', c: Context): string {
  const index = Number(/\[(\d+)\]\.name$/.exec(at)?.[1]);
  const first = c.seen[list].get(name);
  if (first !== undefined) c.p.add(at, `duplicate of ${list}[${first}].name ${JSON.stringify(name)}`);
  else c.seen[list].set(name, index);
  return name;
}

/** An http(s) URL without credentials, query or fragment, trailing slashes removed; '' when wrong. */
function checkBaseUrl(raw: string, at: string, p: Problems): string {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) p.add(at, 'must be an http or https URL');
  else if (url.username !== '' || url.password !== '')
    p.add(at, 'must not contain credentials (user:password@); use apiKeyEnv, apiKeyFile or headers');
  else if (raw.includes('?') || raw.includes('#'))
    p.add(at, 'must not contain a query string or fragment (/chat/completions is appended to it)');
  else return raw.replace(/\/+$/, '');
  return '';
}

function checkApiKeyEnv(name: string, at: string, c: Context): string {
  const value = c.env[name];
  // Some keys (hf_…, gsk_…) look like variable names: name the variable only when it looks
  // like a conventional one, so a pasted key never reaches a log or a reload answer.
  const named = CONVENTIONAL_ENV_NAME_RE.test(name)
    ? `environment variable ${name}`
    : 'the environment variable named here (if you pasted the key itself, put it in a variable and name that)';
  if (value === undefined) c.p.missingSecret(at, `${named} is not set`);
  else if (value === '') c.p.missingSecret(at, `${named} is empty`);
  return name;
}

/** A file the config names must be readable at load (its content is not read here); a pasted key or certificate is not echoed. */
function checkFileAt(file: string, at: string, c: Context, maxBytes?: number): string {
  const problem = c.checkFile(file, maxBytes);
  if (problem !== null) c.p.add(at, `${SHOWABLE_PATH_RE.test(file) ? `file ${JSON.stringify(file)}` : 'the file'} ${problem}`);
  return file;
}

/** A header value an HTTP client sends as it is, and no second Authorization beside a key. */
function checkHeader(value: string, at: string, target: Obj, name: string, p: Problems): string | undefined {
  const keyed = (key: 'apiKeyEnv' | 'apiKeyFile') => present(target[key]) && fieldAccepts(fieldSpec('target', key), target[key]);
  const keySource = keyed('apiKeyEnv') ? 'apiKeyEnv' : keyed('apiKeyFile') ? 'apiKeyFile' : null;
  if (name.toLowerCase() === 'authorization' && keySource !== null)
    p.add(at, `conflicts with ${keySource}, which sets Authorization: Bearer <key>; use one of them`);
  else if (/[\r\n\0]/.test(value)) p.add(at, 'must not contain line breaks');
  // What an HTTP client accepts in a header value: tab, visible ASCII, space, Latin-1.
  else if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
    p.add(at, 'must contain only printable ASCII or Latin-1 characters (no control characters, no characters above U+00FF)');
  else return value;
}

function checkTarget(t: SectionValue<'target'>, path: string, raw: Obj, c: Context): TargetConfig {
  const baseUrl = t.baseUrl ?? '';
  const tlsAt = keyPath(path, 'tls');
  if (isObj(raw['tls']) && baseUrl !== '' && new URL(baseUrl).protocol === 'http:')
    c.p.add(tlsAt, 'applies only to an https baseUrl, and this one is http');
  if (t.tls.caFile != null && t.tls.insecureSkipVerify)
    c.p.add(
      tlsAt,
      'set either caFile or insecureSkipVerify: true, not both (no certificate is checked against caFile when verification is skipped)',
    );
  return t as TargetConfig; // probes: every probe where left out (the absent hook)
}

/** A cron expression node-cron accepts; the value as written is quoted in the message. */
function checkSchedule(s: string, at: string, p: Problems): string | null {
  const problem = cronProblem(s);
  if (problem) p.add(at, `invalid cron expression ${JSON.stringify(s)}: ${problem}`);
  else if (!validateCron(s.trim())) p.add(at, `invalid cron expression ${JSON.stringify(s)}; expected ${CRON_FORMAT}`);
  else return s.trim();
  return null;
}

/** True when the value survives JSON.stringify unchanged (YAML allows .inf and .nan). */
function jsonSafe(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(jsonSafe);
  if (isObj(v)) return Object.values(v).every(jsonSafe);
  return false;
}

/** probes[].expect as the analyzer takes it, or null where the file has none. */
function readExpect(pr: SectionValue<'probe'>, raw: Obj, at: string, p: Problems): ProbeConfig['expect'] {
  const given = raw['expect'];
  if (!isObj(given) || pr.expect === undefined) return null;
  const keywords = pr.expect.keywords ?? [];
  const language = pr.expect.language ?? null;
  if (keywords.length === 0 && pr.expect.headings === 0 && !present(given['keywords']) && !present(given['language']))
    p.add(at, 'sets nothing to check: give keywords, headings, language or more than one');
  return { keywords, minCoverage: pr.expect.minCoverage, headings: pr.expect.headings, language };
}

function checkProbe(pr: SectionValue<'probe'>, path: string, raw: Obj, c: Context): ProbeConfig {
  const { p } = c;
  const messages = pr.prompt !== undefined ? [{ role: 'user' as const, content: pr.prompt }] : (pr.messages ?? []);
  const listed = raw['messages'];
  if (pr.messages !== undefined && Array.isArray(listed) && messages.length === listed.length && !messages.some((m) => m.role === 'user'))
    p.add(keyPath(path, 'messages'), 'must contain at least one user message');
  if (present(raw['minTokens']) && pr.maxTokens !== undefined && pr.minTokens > pr.maxTokens)
    p.add(keyPath(path, 'minTokens'), `must not exceed maxTokens (${pr.maxTokens})`);
  const sweep = pr.temperatures?.length ?? 0;
  if (sweep * pr.samples > DEFAULTS.limits.samplesMax)
    p.add(
      keyPath(path, 'temperatures'),
      `${sweep} temperatures x samples ${pr.samples} = ${sweep * pr.samples} requests per run, more than ${DEFAULTS.limits.samplesMax}`,
    );
  let learnedModel: VerdictModel | undefined;
  // the model is read and checked now, so a bad file is a config problem naming the key and the file
  if (pr.verdictModel !== null)
    try {
      learnedModel = c.readModel(pr.verdictModel);
    } catch (err) {
      p.add(keyPath(path, 'verdictModel'), (err as Error).message);
    }
  return {
    name: pr.name,
    schedule: pr.schedule,
    messages,
    maxTokens: pr.maxTokens,
    // a golden probe is scored at greedy decoding unless the file says otherwise
    temperature: pr.kind === 'golden' && !present(raw['temperature']) ? DEFAULTS.probeKinds.golden.temperature : pr.temperature,
    samples: pr.samples,
    minTokens: pr.minTokens,
    thresholds: pr.thresholds,
    verdict: pr.verdict,
    verdictModel: pr.verdictModel,
    ...(learnedModel ? { learnedModel } : {}),
    timeouts: pr.timeouts,
    extraBody: pr.extraBody,
    abortOnCollapse: pr.abortOnCollapse,
    runOnStart: pr.runOnStart,
    maxResponseBytes: pr.maxResponseBytes,
    expect: readExpect(pr, raw, keyPath(path, 'expect'), p),
    temperatures: pr.temperatures,
    logprobs: pr.logprobs,
    ...probeKindSettings(pr),
  };
}

/** Names of well-formed probes, first occurrence only: what targets[].probes may refer to. */
function declaredProbeNames(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  const names: string[] = [];
  for (const probe of raw) {
    const name = isObj(probe) ? probe['name'] : undefined;
    if (typeof name === 'string' && NAME_RE.test(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * Validates a whole config document and applies defaults.
 * `env` is consulted to check that every apiKeyEnv variable is set and to read
 * COHERENCY_AUTH_TOKEN; `options.checkFile` to check that named files can be read.
 */
export function validateConfig(raw: unknown, env: ConfigEnv, options: ValidateOptions = {}): ConfigResult {
  const p = new Problems(options.missingSecrets);
  let root: Obj = {};
  if (present(raw)) {
    if (isObj(raw)) root = raw;
    else p.add('config', `must be a mapping with the keys ${CONFIG_KEYS.root.join(', ')}`);
  }
  const probeNames = declaredProbeNames(root['probes']);
  const c: Context = {
    p,
    env,
    checkFile: options.checkFile ?? checkReadableFile,
    readModel: options.readVerdictModel ?? readVerdictModelFileSync,
    probeNames,
    seen: { targets: new Map(), probes: new Map() },
  };
  const read = readSection('root', root, '', {
    add: (at, message) => p.add(at, message),
    names: { probes: probeNames },
    // what these keys are when the file leaves them out: the token from the environment, every probe
    absent: {
      'server.authToken': () => envToken(env, p),
      'storage.dir': () => envStorageDir(env, options.checkDir ?? checkWritableDir, p),
      'target.probes': () => [...probeNames],
    },
    keys: {
      'server.host': (host: string, at) => checkHost(host, at, p),
      'simulator.host': (host: string, at) => checkHost(host, at, p),
      'storage.dir': (dir: string, at) => {
        const problem = (options.checkDir ?? checkWritableDir)(dir);
        if (problem) p.add(at, `"${dir}" ${problem}`);
        return dir;
      },
      'target.name': (name: string, at) => checkUniqueName(name, at, 'targets', c),
      'target.baseUrl': (url: string, at) => checkBaseUrl(url, at, p),
      'target.apiKeyEnv': (name: string, at) => checkApiKeyEnv(name, at, c),
      'target.apiKeyFile': (file: string, at) => checkFileAt(file, at, c),
      'tls.caFile': (file: string, at) => checkFileAt(file, at, c, CA_FILE_MAX_BYTES),
      'server.trustProxy[]': (entry: string, at) => checkCidr(entry, at, p),
      'target.headers[]': (value: string, at, obj, name) => checkHeader(value, at, obj, name, p),
      // a token set in the file or in the environment, valid or not
      'server.metricsAuth': (on: boolean, at, obj) => {
        if (on && !present(obj['authToken']) && env[DEFAULTS.authTokenEnv] === undefined)
          p.add(at, `needs a token: set server.authToken or ${DEFAULTS.authTokenEnv}`);
        return on;
      },
      'probe.name': (name: string, at) => checkUniqueName(name, at, 'probes', c),
      'probe.extraBody[]': (value: unknown, at) => {
        if (jsonSafe(value)) return value;
        p.add(at, 'must be plain JSON data (no .inf, .nan or special YAML types)');
      },
      // The schema's keyword pattern is laxer (editors' regex engines lack \p{..}): a letter or a digit is the rule.
      'expect.keywords[]': (word: string, at) => {
        if (/[\p{L}\p{N}]/u.test(word)) return word;
        p.add(at, fieldMessage(CONFIG_SPEC.expect.fields.keywords.items));
      },
      // the expression as written is quoted in messages
      'probe.schedule': (_trimmed: string, at, obj) => checkSchedule(obj['schedule'] as string, at, p),
    },
    hooks: {
      target: (t, path, obj) => checkTarget(t, path, obj, c),
      probe: (pr, path, obj) => checkProbe(pr, path, obj, c),
      otlp: (o, _path, obj) => resolveOtlp(o, obj, env, (at, message) => p.add(at, message)),
    },
  });
  // The hooks and the absent-key values gave each section its final shape (the token, targets, probes).
  const config = read as unknown as Config;
  if (config.simulator.enabled && config.simulator.port !== 0 && config.simulator.port === config.server.port) {
    p.add('simulator.port', `must differ from server.port (${config.server.port})`);
  }

  if (p.list.length > 0) return { ok: false, errors: p.list };
  return { ok: true, config, ...(p.warnings.length ? { warnings: p.warnings } : {}) };
}
