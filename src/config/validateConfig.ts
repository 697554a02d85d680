import { isIP } from 'node:net';
/**
 * Turns a plain JS value (parsed YAML, or the env fallback's object) into a Config,
 * or into the list of every problem found. Never throws for bad input.
 *
 * Messages name the path and say what is wrong; they never echo header values,
 * URLs, tokens or environment values, which may hold secrets. File paths are shown
 * only when they plainly are paths (see describeFile).
 */
import { validate as validateCron } from 'node-cron';
import { CRON_FORMAT, cronProblem } from './cronProblem.js';
import { DEFAULT_THRESHOLDS } from '../core/thresholds.js';
import type { VerdictModel } from '../core/verdictModel.js';
import { readVerdictModelFileSync } from './readVerdictModelFile.js';
import { checkReadableFile, type FileCheck } from './checkReadableFile.js';
import { checkWritableDir, type DirCheck } from './checkWritableDir.js';
import { validateProbeKind } from './validateProbeKind.js';
import { DEFAULTS, RESERVED_BODY_KEYS, RESERVED_HEADERS } from './defaults.js';
import { CONFIG_SPEC, fieldAccepts, fieldMessage, fieldSpec, sectionKeys, type SectionName } from './configSpec.js';
import { suggestKey } from './suggest.js';
import { validateProbeSignals } from './validateProbeSignals.js';
import type {
  ChatMessage,
  Config,
  MetricsConfig,
  MetricsDetail,
  ProbeConfig,
  ServerConfig,
  SimulatorConfig,
  StorageConfig,
  TargetConfig,
  Timeouts,
  TlsConfig,
} from './types.js';

export type ConfigEnv = Record<string, string | undefined>;

export type ConfigResult = { ok: true; config: Config; warnings?: string[] } | { ok: false; errors: string[] };

export interface ValidateOptions {
  /** How apiKeyFile and tls.caFile are checked at load; defaults to the real file system. */
  checkFile?: FileCheck;
  /** How probes[].verdictModel is read and checked (throws a message naming the file); defaults to a bounded read of the real file. */
  readVerdictModel?: (path: string) => VerdictModel;
  /** How storage.dir is checked (a directory that exists or can be created, writable); defaults to the real file system. */
  checkDir?: DirCheck;
  /**
   * What an unset apiKeyEnv variable is: an error (serve, reload: the default) or a warning
   * (check-config in a pipeline that has the file but not the secret).
   */
  missingSecrets?: 'error' | 'warning';
}

/** Every key the file format accepts, per section, as configSpec.ts declares them; config/example.yaml documents each. */
export const CONFIG_KEYS = Object.freeze({
  root: sectionKeys('root'),
  server: sectionKeys('server'),
  simulator: sectionKeys('simulator'),
  metrics: sectionKeys('metrics'),
  storage: sectionKeys('storage'),
  target: sectionKeys('target'),
  probe: sectionKeys('probe'),
  message: sectionKeys('message'),
  timeouts: sectionKeys('timeouts'),
  tls: sectionKeys('tls'),
});

const NAME_RE = new RegExp(CONFIG_SPEC.target.fields.name.pattern);
const ENV_NAME_RE = new RegExp(CONFIG_SPEC.target.fields.apiKeyEnv.pattern);
const CONVENTIONAL_ENV_NAME_RE = /^[A-Z][A-Z0-9_]{0,63}$/;
// RFC 9110 token characters.
const HEADER_NAME_RE = new RegExp(CONFIG_SPEC.target.fields.headers.keyPattern);
const ROLES: readonly ChatMessage['role'][] = CONFIG_SPEC.message.fields.role.enum;
const PLAIN_KEY_RE = /^[A-Za-z0-9_-]+$/;
// What a client can send after "Bearer " without quoting: printable ASCII, no spaces.
const TOKEN_RE = /^[\x21-\x7e]+$/;
// Absolute or ./ ../ relative, one line, no blanks: a pasted key or PEM block never looks like this.
const SHOWABLE_PATH_RE = /^\.{0,2}\/[^\s\x00-\x1f\x7f]*$/;

type Obj = Record<string, unknown>;

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

function keyPath(parent: string, key: string): string {
  const part = PLAIN_KEY_RE.test(key) ? key : JSON.stringify(key);
  if (parent === '') return part;
  return PLAIN_KEY_RE.test(key) ? `${parent}.${key}` : `${parent}[${part}]`;
}

function indexPath(parent: string, i: number): string {
  return `${parent}[${i}]`;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** YAML `key:` with no value is null; treat it like an absent key. */
function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function checkKeys(obj: Obj, allowed: readonly string[], path: string, p: Problems): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const hint = suggestKey(key, allowed);
    p.add(keyPath(path, key), hint ? `unknown key (did you mean ${hint}?)` : `unknown key (known: ${allowed.join(', ')})`);
  }
}

/** An optional mapping section: absent → {}, wrong type → error and null. */
function section(value: unknown, path: string, allowed: readonly string[], p: Problems): Obj | null {
  if (!present(value)) return {};
  if (!isObj(value)) {
    p.add(path, 'must be a mapping');
    return null;
  }
  checkKeys(value, allowed, path, p);
  return value;
}

function nonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== '';
}

function readString(obj: Obj, key: string, path: string, p: Problems, fallback: string): string {
  const v = obj[key];
  if (!present(v)) return fallback;
  if (!nonEmptyString(v)) {
    p.add(keyPath(path, key), 'must be a non-empty string');
    return fallback;
  }
  return v.trim();
}

function requireString(obj: Obj, key: string, path: string, p: Problems): string {
  const v = obj[key];
  if (!present(v)) {
    p.add(keyPath(path, key), 'is required');
    return '';
  }
  return readString(obj, key, path, p, '');
}

function readBool(obj: Obj, key: string, path: string, p: Problems, fallback: boolean): boolean {
  const v = obj[key];
  if (!present(v)) return fallback;
  if (typeof v !== 'boolean') {
    p.add(keyPath(path, key), 'must be true or false');
    return fallback;
  }
  return v;
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/**
 * Reads an optional key by its declaration in configSpec.ts (type, range, enum), with the
 * message written from it; strings come back trimmed.
 */
function readSpec<S extends SectionName, T>(
  obj: Obj,
  section: S,
  key: Parameters<typeof fieldSpec<S>>[1],
  path: string,
  p: Problems,
  fallback: T,
): T {
  const v = obj[key];
  if (!present(v)) return fallback;
  const f = fieldSpec(section, key);
  if (!fieldAccepts(f, v)) {
    p.add(keyPath(path, key), fieldMessage(f));
    return fallback;
  }
  return (typeof v === 'string' ? v.trim() : v) as T;
}

const TOKEN_MESSAGE = fieldMessage(fieldSpec('server', 'authToken'));

function tokenOk(t: string): boolean {
  return t.length >= DEFAULTS.limits.authTokenMinLength && TOKEN_RE.test(t);
}

/**
 * server.authToken, else the environment variable (for a Kubernetes Secret); the file
 * value wins. `given` is true when either was set, valid or not.
 */
function readAuthToken(obj: Obj, env: ConfigEnv, p: Problems): { token: string | null; given: boolean } {
  const v = obj['authToken'];
  if (present(v)) {
    const t = typeof v === 'string' ? v.trim() : '';
    if (!tokenOk(t)) {
      p.add('server.authToken', TOKEN_MESSAGE);
      return { token: null, given: true };
    }
    return { token: t, given: true };
  }
  const name = DEFAULTS.authTokenEnv;
  const e = env[name];
  if (e === undefined) return { token: null, given: false };
  const t = e.trim();
  if (t === '') {
    // Fail closed: an empty variable is more likely a broken Secret than a wish for no auth.
    p.add(name, 'is set but empty (unset it to run without auth)');
    return { token: null, given: true };
  }
  if (!tokenOk(t)) {
    p.add(name, TOKEN_MESSAGE);
    return { token: null, given: true };
  }
  return { token: t, given: true };
}

/** An IP address (v4 or v6, brackets allowed) or a host name of RFC 1123 labels. */
function isHost(v: string): boolean {
  if (isIP(v.replace(/^\[(.*)\]$/, '$1')) !== 0) return true;
  return v.length <= 253 && v.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}

/** A listen address: checked for its form here; whether it resolves and can be bound is known only at start. */
function readHost(obj: Obj, section: string, p: Problems, fallback: string): string {
  const host = readString(obj, 'host', section, p, fallback);
  if (!isHost(host))
    p.add(
      `${section}.host`,
      `must be an IP address or a host name (letters, digits, '-' and '.'), got ${JSON.stringify(host.slice(0, 60))}`,
    );
  return host;
}

function validateServer(raw: unknown, env: ConfigEnv, p: Problems): ServerConfig {
  const d = DEFAULTS.server;
  const obj = section(raw, 'server', CONFIG_KEYS.server, p) ?? {};
  const host = readHost(obj, 'server', p, d.host);
  const port = readSpec(obj, 'server', 'port', 'server', p, d.port);
  const { token, given } = readAuthToken(obj, env, p);
  const metricsAuth = readBool(obj, 'metricsAuth', 'server', p, d.metricsAuth);
  if (metricsAuth && !given) {
    p.add('server.metricsAuth', `needs a token: set server.authToken or ${DEFAULTS.authTokenEnv}`);
  }
  const maxConcurrentManualRuns = readSpec(obj, 'server', 'maxConcurrentManualRuns', 'server', p, d.maxConcurrentManualRuns);
  const maxConcurrentSamples = readSpec(obj, 'server', 'maxConcurrentSamples', 'server', p, d.maxConcurrentSamples);
  const allowedHosts = readAllowedHosts(obj['allowedHosts'], p);
  const trustProxy = readTrustProxy(obj['trustProxy'], p);
  return { host, port, authToken: token, metricsAuth, maxConcurrentManualRuns, maxConcurrentSamples, allowedHosts, trustProxy };
}

/** A list of strings, each checked by `bad` (a message, or null when fine); every problem named by its index. */
function readStringList(raw: unknown, path: string, listMessage: string, bad: (entry: string) => string | null, p: Problems): string[] {
  if (!Array.isArray(raw)) {
    p.add(path, listMessage);
    return [];
  }
  const out: string[] = [];
  raw.forEach((v, i) => {
    const entry = typeof v === 'string' ? v.trim() : '';
    const why = entry === '' ? 'must be a non-empty string' : bad(entry);
    if (why) p.add(indexPath(path, i), why);
    else out.push(entry);
  });
  return out;
}

const HOST_PATTERN = new RegExp(CONFIG_SPEC.server.fields.allowedHosts.items.pattern);

function readAllowedHosts(raw: unknown, p: Problems): string[] | null {
  if (!present(raw)) return DEFAULTS.server.allowedHosts;
  const path = 'server.allowedHosts';
  const hosts = readStringList(
    raw,
    path,
    fieldMessage(fieldSpec('server', 'allowedHosts')),
    (h) =>
      HOST_PATTERN.test(h) && h.length <= 253
        ? null
        : `must be a host name (letters, digits, '-' and '.', no port), *.domain or *, got ${JSON.stringify(h.slice(0, 60))}`,
    p,
  );
  if (Array.isArray(raw) && raw.length === 0)
    p.add(path, 'must name at least one host (or [*] to accept any; leave it out for the default)');
  return hosts;
}

/** An IPv4 or IPv6 address, optionally with a /prefix of a length that fits it. */
function cidrProblem(entry: string): string | null {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  const what = `must be an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8), got ${JSON.stringify(entry.slice(0, 60))}`;
  if (family === 0) return what;
  if (slash < 0) return null;
  const prefix = entry.slice(slash + 1);
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max ? null : what;
}

function readTrustProxy(raw: unknown, p: Problems): string[] {
  if (!present(raw)) return [...DEFAULTS.server.trustProxy];
  return readStringList(raw, 'server.trustProxy', fieldMessage(fieldSpec('server', 'trustProxy')), cidrProblem, p);
}

function validateSimulator(raw: unknown, p: Problems): SimulatorConfig {
  const d = DEFAULTS.simulator;
  const obj = section(raw, 'simulator', CONFIG_KEYS.simulator, p) ?? {};
  return {
    enabled: readBool(obj, 'enabled', 'simulator', p, d.enabled),
    host: readHost(obj, 'simulator', p, d.host),
    port: readSpec(obj, 'simulator', 'port', 'simulator', p, d.port),
    // 0 streams as fast as possible, as in `coherency-exporter simulate --tokens-per-second 0`.
    tokensPerSecond: readSpec(obj, 'simulator', 'tokensPerSecond', 'simulator', p, d.tokensPerSecond),
  };
}

function validateMetrics(raw: unknown, p: Problems): MetricsConfig {
  const obj = section(raw, 'metrics', CONFIG_KEYS.metrics, p) ?? {};
  return {
    degenerationWindow: readSpec(obj, 'metrics', 'degenerationWindow', 'metrics', p, DEFAULTS.metrics.degenerationWindow),
    detail: readSpec<'metrics', MetricsDetail>(obj, 'metrics', 'detail', 'metrics', p, DEFAULTS.metrics.detail),
  };
}

function validateStorage(raw: unknown, p: Problems): StorageConfig {
  const d = DEFAULTS.storage;
  const obj = section(raw, 'storage', CONFIG_KEYS.storage, p) ?? {};
  let dir: string | null = d.dir;
  const v = obj['dir'];
  if (present(v)) {
    if (!nonEmptyString(v)) p.add('storage.dir', 'must be a directory path, or null to keep runs only in memory');
    else dir = v.trim();
  }
  return {
    dir,
    maxRuns: readSpec(obj, 'storage', 'maxRuns', 'storage', p, d.maxRuns),
    maxBytes: readSpec(obj, 'storage', 'maxBytes', 'storage', p, d.maxBytes),
    historySize: readSpec(obj, 'storage', 'historySize', 'storage', p, d.historySize),
    historyMaxBytes: readSpec(obj, 'storage', 'historyMaxBytes', 'storage', p, d.historyMaxBytes),
  };
}

/** A list section: absent or empty is an error (at least one entry is required). */
function requireList(raw: unknown, path: string, what: string, p: Problems): unknown[] {
  if (!present(raw)) {
    p.add(path, `must list at least one ${what}`);
    return [];
  }
  if (!Array.isArray(raw)) {
    p.add(path, 'must be a list');
    return [];
  }
  if (raw.length === 0) p.add(path, `must list at least one ${what}`);
  return raw;
}

/** Checks `name` and its uniqueness among earlier entries of the same list. */
function readName(obj: Obj, path: string, listPath: string, index: number, seen: Map<string, number>, p: Problems): string {
  const namePath = keyPath(path, 'name');
  const v = obj['name'];
  if (!present(v)) {
    p.add(namePath, 'is required');
    return '';
  }
  if (typeof v !== 'string' || !NAME_RE.test(v)) {
    p.add(namePath, 'must match [a-z0-9_-]+');
    return '';
  }
  const first = seen.get(v);
  if (first !== undefined) {
    p.add(namePath, `duplicate of ${indexPath(listPath, first)}.name ${JSON.stringify(v)}`);
  } else {
    seen.set(v, index);
  }
  return v;
}

/** Timeouts: every given field must be a positive number; returns only the given ones. */
function readTimeouts(raw: unknown, path: string, p: Problems): Partial<Timeouts> {
  const obj = section(raw, path, CONFIG_KEYS.timeouts, p) ?? {};
  const out: Partial<Timeouts> = {};
  for (const key of CONFIG_KEYS.timeouts) {
    const v = obj[key];
    if (!present(v)) continue;
    const f = fieldSpec('timeouts', key);
    if (!fieldAccepts(f, v)) p.add(keyPath(path, key), fieldMessage(f));
    else out[key] = v as number;
  }
  return out;
}

function validateBaseUrl(obj: Obj, path: string, p: Problems): string {
  const raw = requireString(obj, 'baseUrl', path, p);
  if (raw === '') return '';
  const urlPath = keyPath(path, 'baseUrl');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    p.add(urlPath, 'must be an http or https URL');
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    p.add(urlPath, 'must be an http or https URL');
    return '';
  }
  if (url.username !== '' || url.password !== '') {
    p.add(urlPath, 'must not contain credentials (user:password@); use apiKeyEnv, apiKeyFile or headers');
    return '';
  }
  if (raw.includes('?') || raw.includes('#')) {
    p.add(urlPath, 'must not contain a query string or fragment (/chat/completions is appended to it)');
    return '';
  }
  return raw.replace(/\/+$/, '');
}

function validateApiKeyEnv(obj: Obj, path: string, env: ConfigEnv, p: Problems): string | null {
  const v = obj['apiKeyEnv'];
  if (!present(v)) return null;
  const at = keyPath(path, 'apiKeyEnv');
  if (typeof v !== 'string' || !ENV_NAME_RE.test(v)) {
    p.add(at, 'must be the name of an environment variable (letters, digits and _), not the key itself');
    return null;
  }
  const value = env[v];
  // Some keys (hf_…, gsk_…) look like variable names: name the variable only when it looks
  // like a conventional one, so a pasted key never reaches a log or a reload answer.
  const named = CONVENTIONAL_ENV_NAME_RE.test(v)
    ? `environment variable ${v}`
    : 'the environment variable named here (if you pasted the key itself, put it in a variable and name that)';
  if (value === undefined) p.missingSecret(at, `${named} is not set`);
  else if (value === '') p.missingSecret(at, `${named} is empty`);
  return v;
}

/** How a file the config names appears in messages: a pasted key or certificate is not echoed. */
function describeFile(path: string): string {
  return SHOWABLE_PATH_RE.test(path) ? `file ${JSON.stringify(path)}` : 'the file';
}

/** An optional path that must name a readable file at load. The content is never read here. */
function readFilePath(obj: Obj, key: string, path: string, what: string, checkFile: FileCheck, p: Problems): string | null {
  const v = obj[key];
  if (!present(v)) return null;
  const at = keyPath(path, key);
  if (!nonEmptyString(v)) {
    p.add(at, `must be the path of a file holding ${what}`);
    return null;
  }
  const file = v.trim();
  const problem = checkFile(file);
  if (problem !== null) p.add(at, `${describeFile(file)} ${problem}`);
  return file;
}

function validateTls(raw: unknown, path: string, baseUrl: string, checkFile: FileCheck, p: Problems): TlsConfig {
  const d = DEFAULTS.target.tls;
  if (!present(raw)) return { ...d };
  const obj = section(raw, path, CONFIG_KEYS.tls, p);
  if (obj === null) return { ...d };
  if (baseUrl !== '' && new URL(baseUrl).protocol === 'http:') {
    p.add(path, 'applies only to an https baseUrl, and this one is http');
  }
  const caFile = readFilePath(obj, 'caFile', path, 'PEM CA certificates', checkFile, p);
  const insecureSkipVerify = readBool(obj, 'insecureSkipVerify', path, p, d.insecureSkipVerify);
  if (caFile !== null && insecureSkipVerify) {
    p.add(
      path,
      'set either caFile or insecureSkipVerify: true, not both (no certificate is checked against caFile when verification is skipped)',
    );
  }
  return { caFile, insecureSkipVerify };
}

function validateHeaders(raw: unknown, path: string, keySource: 'apiKeyEnv' | 'apiKeyFile' | null, p: Problems): Record<string, string> {
  const out: Record<string, string> = {};
  if (!present(raw)) return out;
  if (!isObj(raw)) {
    p.add(path, 'must be a mapping of header name to string value');
    return out;
  }
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    const at = keyPath(path, name);
    const lower = name.toLowerCase();
    if (!HEADER_NAME_RE.test(name)) {
      p.add(at, 'is not a valid HTTP header name');
      continue;
    }
    const earlier = seen.get(lower);
    if (earlier !== undefined) {
      p.add(at, `duplicate of header ${JSON.stringify(earlier)} (header names ignore case)`);
      continue;
    }
    seen.set(lower, name);
    if (RESERVED_HEADERS.includes(lower)) {
      p.add(at, 'is managed by the HTTP client and cannot be set');
      continue;
    }
    if (lower === 'authorization' && keySource !== null) {
      p.add(at, `conflicts with ${keySource}, which sets Authorization: Bearer <key>; use one of them`);
      continue;
    }
    if (typeof value !== 'string') {
      p.add(at, 'must be a string (quote numbers and booleans)');
      continue;
    }
    if (/[\r\n\0]/.test(value)) {
      p.add(at, 'must not contain line breaks');
      continue;
    }
    // What an HTTP client accepts in a header value: tab, visible ASCII, space, Latin-1.
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) {
      p.add(at, 'must contain only printable ASCII or Latin-1 characters (no control characters, no characters above U+00FF)');
      continue;
    }
    out[name] = value;
  }
  return out;
}

function validateTargetProbes(raw: unknown, path: string, known: readonly string[], p: Problems): string[] {
  if (!present(raw)) return [...known];
  if (!Array.isArray(raw)) {
    p.add(path, 'must be a list of probe names');
    return [];
  }
  if (raw.length === 0) {
    p.add(path, 'must list at least one probe (leave it out to run every probe)');
    return [];
  }
  const out: string[] = [];
  const seen = new Map<string, number>();
  raw.forEach((v, i) => {
    const at = indexPath(path, i);
    if (typeof v !== 'string') {
      p.add(at, 'must be a probe name');
      return;
    }
    const first = seen.get(v);
    if (first !== undefined) {
      p.add(at, `duplicate of ${indexPath(path, first)} ${JSON.stringify(v)}`);
      return;
    }
    seen.set(v, i);
    if (!known.includes(v)) {
      p.add(at, `unknown probe ${JSON.stringify(v)} (known: ${known.length > 0 ? known.join(', ') : 'none'})`);
      return;
    }
    out.push(v);
  });
  return out;
}

function validateTarget(
  raw: unknown,
  index: number,
  seen: Map<string, number>,
  probeNames: readonly string[],
  env: ConfigEnv,
  checkFile: FileCheck,
  p: Problems,
): TargetConfig | null {
  const path = indexPath('targets', index);
  if (!isObj(raw)) {
    p.add(path, 'must be a mapping');
    return null;
  }
  checkKeys(raw, CONFIG_KEYS.target, path, p);
  const name = readName(raw, path, 'targets', index, seen, p);
  const baseUrl = validateBaseUrl(raw, path, p);
  const model = requireString(raw, 'model', path, p);
  const apiKeyEnv = validateApiKeyEnv(raw, path, env, p);
  const apiKeyFile = readFilePath(raw, 'apiKeyFile', path, 'the key, not the key itself', checkFile, p);
  if (present(raw['apiKeyEnv']) && present(raw['apiKeyFile'])) p.add(path, 'set either apiKeyEnv or apiKeyFile, not both');
  const keySource = apiKeyEnv !== null ? 'apiKeyEnv' : apiKeyFile !== null ? 'apiKeyFile' : null;
  const headers = validateHeaders(raw['headers'], keyPath(path, 'headers'), keySource, p);
  const probes = validateTargetProbes(raw['probes'], keyPath(path, 'probes'), probeNames, p);
  const timeouts: Timeouts = {
    ...DEFAULTS.target.timeouts,
    ...readTimeouts(raw['timeouts'], keyPath(path, 'timeouts'), p),
  };
  const tls = validateTls(raw['tls'], keyPath(path, 'tls'), baseUrl, checkFile, p);
  const maxTokensField = readSpec<'target', TargetConfig['maxTokensField']>(
    raw,
    'target',
    'maxTokensField',
    path,
    p,
    DEFAULTS.target.maxTokensField,
  );
  const omit: TargetConfig['omit'] = [];
  const om = raw['omit'];
  if (present(om)) {
    if (!Array.isArray(om)) p.add(keyPath(path, 'omit'), 'must be a list of request fields to leave out: [temperature]');
    else {
      om.forEach((v, i) => {
        if (v === 'temperature') omit.push('temperature');
        else p.add(`${keyPath(path, 'omit')}[${i}]`, 'only temperature can be left out');
      });
    }
  }
  const modelAliases: string[] = [];
  const aliases = raw['modelAliases'];
  if (present(aliases)) {
    const at = keyPath(path, 'modelAliases');
    if (!Array.isArray(aliases)) p.add(at, fieldMessage(fieldSpec('target', 'modelAliases')));
    else
      aliases.forEach((v, i) => {
        if (!nonEmptyString(v)) p.add(indexPath(at, i), 'must be a model name (a non-empty string)');
        else if (modelAliases.includes(v.trim())) p.add(indexPath(at, i), `duplicate of ${JSON.stringify(v.trim().slice(0, 80))}`);
        else modelAliases.push(v.trim());
      });
  }
  const reasoning = readSpec<'target', boolean | null>(raw, 'target', 'reasoning', path, p, DEFAULTS.target.reasoning);
  return { name, baseUrl, model, apiKeyEnv, apiKeyFile, headers, probes, timeouts, tls, maxTokensField, omit, modelAliases, reasoning };
}

function validateMessages(raw: unknown, path: string, p: Problems): ChatMessage[] {
  if (!Array.isArray(raw)) {
    p.add(path, 'must be a list of {role, content}');
    return [];
  }
  if (raw.length === 0) {
    p.add(path, 'must contain at least one message');
    return [];
  }
  const out: ChatMessage[] = [];
  raw.forEach((m, i) => {
    const at = indexPath(path, i);
    if (!isObj(m)) {
      p.add(at, 'must be a mapping with role and content');
      return;
    }
    checkKeys(m, CONFIG_KEYS.message, at, p);
    const role = m['role'];
    const content = m['content'];
    let good = true;
    if (!present(role)) {
      p.add(keyPath(at, 'role'), 'is required');
      good = false;
    } else if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
      p.add(keyPath(at, 'role'), `must be one of ${ROLES.join(', ')}`);
      good = false;
    }
    if (!present(content)) {
      p.add(keyPath(at, 'content'), 'is required');
      good = false;
    } else if (!nonEmptyString(content)) {
      p.add(keyPath(at, 'content'), 'must be a non-empty string');
      good = false;
    }
    if (good) out.push({ role: role as ChatMessage['role'], content: content as string });
  });
  if (out.length === raw.length && !out.some((m) => m.role === 'user')) {
    p.add(path, 'must contain at least one user message');
  }
  return out;
}

function validateThresholds(raw: unknown, path: string, p: Problems): Record<string, number> {
  const out: Record<string, number> = {};
  if (!present(raw)) return out;
  if (!isObj(raw)) {
    p.add(path, 'must be a mapping of threshold name to number');
    return out;
  }
  // The analyzer owns the names; read them at run time so new thresholds need no change here.
  const known = Object.keys(DEFAULT_THRESHOLDS);
  for (const [key, value] of Object.entries(raw)) {
    const at = keyPath(path, key);
    if (!known.includes(key)) {
      const hint = suggestKey(key, known);
      p.add(at, hint ? `unknown threshold (did you mean ${hint}?)` : `unknown threshold (known: ${known.join(', ')})`);
      continue;
    }
    if (!isFiniteNumber(value) || value < 0) {
      p.add(at, 'must be a finite number >= 0');
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** True when the value survives JSON.stringify unchanged (YAML allows .inf and .nan). */
function jsonSafe(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(jsonSafe);
  if (isObj(v)) return Object.values(v).every(jsonSafe);
  return false;
}

function validateExtraBody(raw: unknown, path: string, p: Problems): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!present(raw)) return out;
  if (!isObj(raw)) {
    p.add(path, 'must be a mapping of request body fields');
    return out;
  }
  for (const [key, value] of Object.entries(raw)) {
    const at = keyPath(path, key);
    if (key === '__proto__') {
      p.add(at, 'is not a valid field name');
      continue;
    }
    const reserved = Object.hasOwn(RESERVED_BODY_KEYS, key) ? RESERVED_BODY_KEYS[key] : undefined;
    if (reserved !== undefined) {
      p.add(at, `cannot be overridden: ${reserved}`);
      continue;
    }
    if (!jsonSafe(value)) {
      p.add(at, 'must be plain JSON data (no .inf, .nan or special YAML types)');
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** probes[].verdictModel: the path, and the model read and checked now, so a bad file is a config problem naming the key and the file. */
function readVerdictModel(
  raw: Obj,
  path: string,
  readModel: (file: string) => VerdictModel,
  p: Problems,
): { verdictModel: string | null; learnedModel?: VerdictModel } {
  const v = raw['verdictModel'];
  if (!present(v)) return { verdictModel: null };
  const at = keyPath(path, 'verdictModel');
  if (!nonEmptyString(v)) {
    p.add(at, 'must be the path of a verdict model file (JSON written by npm run train)');
    return { verdictModel: null };
  }
  const file = v.trim();
  try {
    return { verdictModel: file, learnedModel: readModel(file) };
  } catch (err) {
    p.add(at, (err as Error).message);
    return { verdictModel: file };
  }
}

function validateProbe(
  raw: unknown,
  index: number,
  seen: Map<string, number>,
  readModel: (file: string) => VerdictModel,
  p: Problems,
): ProbeConfig | null {
  const path = indexPath('probes', index);
  if (!isObj(raw)) {
    p.add(path, 'must be a mapping');
    return null;
  }
  const d = DEFAULTS.probe;
  checkKeys(raw, CONFIG_KEYS.probe, path, p);
  const name = readName(raw, path, 'probes', index, seen, p);
  const kind = validateProbeKind(raw, path, (at, message) => p.add(at, message));

  let schedule: string | null = d.schedule;
  const s = raw['schedule'];
  if (present(s)) {
    if (typeof s !== 'string') p.add(keyPath(path, 'schedule'), 'must be a cron expression in quotes');
    else {
      const problem = cronProblem(s);
      if (problem) p.add(keyPath(path, 'schedule'), `invalid cron expression ${JSON.stringify(s)}: ${problem}`);
      else if (!validateCron(s.trim()))
        p.add(keyPath(path, 'schedule'), `invalid cron expression ${JSON.stringify(s)}; expected ${CRON_FORMAT}`);
      else schedule = s.trim();
    }
  }

  let messages: ChatMessage[] = [];
  const hasPrompt = present(raw['prompt']);
  const hasMessages = present(raw['messages']);
  if (kind.kind !== undefined) {
    // recall and contamination probes write their own conversation
    if (hasPrompt || hasMessages) p.add(path, `a ${kind.kind} probe builds its own messages: leave out prompt and messages`);
  } else if (hasPrompt && hasMessages) {
    p.add(path, 'set either prompt or messages, not both');
  } else if (!hasPrompt && !hasMessages) {
    p.add(path, 'set either prompt or messages');
  } else if (hasPrompt) {
    const prompt = raw['prompt'];
    if (!nonEmptyString(prompt)) p.add(keyPath(path, 'prompt'), 'must be a non-empty string');
    else messages = [{ role: 'user', content: prompt }];
  } else {
    messages = validateMessages(raw['messages'], keyPath(path, 'messages'), p);
  }

  let maxTokens = 0;
  if (!present(raw['maxTokens'])) p.add(keyPath(path, 'maxTokens'), 'is required');
  else maxTokens = readSpec(raw, 'probe', 'maxTokens', path, p, 0);

  const temperature = readSpec(raw, 'probe', 'temperature', path, p, d.temperature);
  const samples = readSpec(raw, 'probe', 'samples', path, p, d.samples);
  const minTokensGiven = present(raw['minTokens']);
  const minTokens = readSpec(raw, 'probe', 'minTokens', path, p, d.minTokens);
  if (minTokensGiven && maxTokens > 0 && minTokens > maxTokens) {
    p.add(keyPath(path, 'minTokens'), `must not exceed maxTokens (${maxTokens})`);
  }

  return {
    name,
    schedule,
    messages,
    maxTokens,
    temperature,
    samples,
    minTokens,
    thresholds: validateThresholds(raw['thresholds'], keyPath(path, 'thresholds'), p),
    verdict: readSpec(raw, 'probe', 'verdict', path, p, d.verdict),
    ...readVerdictModel(raw, path, readModel, p),
    timeouts: readTimeouts(raw['timeouts'], keyPath(path, 'timeouts'), p),
    extraBody: validateExtraBody(raw['extraBody'], keyPath(path, 'extraBody'), p),
    abortOnCollapse: readBool(raw, 'abortOnCollapse', path, p, d.abortOnCollapse),
    runOnStart: readBool(raw, 'runOnStart', path, p, d.runOnStart),
    maxResponseBytes: readSpec<'probe', number | null>(raw, 'probe', 'maxResponseBytes', path, p, d.maxResponseBytes),
    ...validateProbeSignals(raw, path, DEFAULTS.limits, samples, (at, message) => p.add(at, message)),
    ...kind,
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
  const checkFile = options.checkFile ?? checkReadableFile;
  const p = new Problems(options.missingSecrets);
  let root: Obj = {};
  if (present(raw)) {
    if (isObj(raw)) root = raw;
    else p.add('config', `must be a mapping with the keys ${CONFIG_KEYS.root.join(', ')}`);
  }
  checkKeys(root, CONFIG_KEYS.root, '', p);

  const server = validateServer(root['server'], env, p);
  const simulator = validateSimulator(root['simulator'], p);
  const metrics = validateMetrics(root['metrics'], p);
  const storage = validateStorage(root['storage'], p);
  if (storage.dir !== null) {
    const problem = (options.checkDir ?? checkWritableDir)(storage.dir);
    if (problem) p.add('storage.dir', `"${storage.dir}" ${problem}`);
  }

  const probeNames = declaredProbeNames(root['probes']);
  const targetSeen = new Map<string, number>();
  const targets = requireList(root['targets'], 'targets', 'target', p)
    .map((t, i) => validateTarget(t, i, targetSeen, probeNames, env, checkFile, p))
    .filter((t): t is TargetConfig => t !== null);

  const probeSeen = new Map<string, number>();
  const probes = requireList(root['probes'], 'probes', 'probe', p)
    .map((pr, i) => validateProbe(pr, i, probeSeen, options.readVerdictModel ?? readVerdictModelFileSync, p))
    .filter((pr): pr is ProbeConfig => pr !== null);

  if (simulator.enabled && simulator.port !== 0 && simulator.port === server.port) {
    p.add('simulator.port', `must differ from server.port (${server.port})`);
  }

  if (p.list.length > 0) return { ok: false, errors: p.list };
  return {
    ok: true,
    config: { server, simulator, metrics, storage, targets, probes },
    ...(p.warnings.length ? { warnings: p.warnings } : {}),
  };
}
