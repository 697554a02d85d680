import { createHash } from 'node:crypto';
import { redactText } from '../client/redactSecrets.js';

/**
 * A target's fingerprint: what it says about itself, normalized into a small record with a
 * short hash. Pure: the reads (fetchIdentity.ts) and the responses' fields come in as values.
 *
 * Which server software answers is read from its info endpoint when it has one (the path that
 * answered names it), else from the `server` header. `created` of a /models entry is kept for
 * people but is not part of the identity: vLLM and the simulator stamp it with the time of
 * each request.
 *
 * Everything here comes from the target, and a hostile or careless one echoes the key it was
 * sent (in its `server` header, its system_fingerprint, a model name). Every string is redacted
 * with the target's secrets (redactSecrets.ts) as the record is built, before the hash: the
 * record is what the pages, the JSON, the stored runs, the log lines and the info series show.
 */

/** The entry of the target's model in GET {baseUrl}/models. */
export interface ModelEntry {
  id: string;
  root: string | null;
  ownedBy: string | null;
  maxModelLen: number | null;
  created: number | null;
}

/** An info endpoint that answered: its path under the target's origin and its JSON body. */
export interface InfoRead {
  path: InfoPath;
  body: Record<string, unknown>;
}

/** The info endpoints read, by the server that offers each. */
export const INFO_ENDPOINTS = [
  { path: '/version', server: 'vllm', method: 'GET' },
  { path: '/get_server_info', server: 'sglang', method: 'GET' },
  { path: '/props', server: 'llama.cpp', method: 'GET' },
  { path: '/info', server: 'tgi', method: 'GET' },
  { path: '/api/version', server: 'ollama', method: 'GET' },
] as const;

export type InfoPath = (typeof INFO_ENDPOINTS)[number]['path'];

/** What a response said about the server that made it (client ServedBy). */
export interface ServedFields {
  model: string | null;
  systemFingerprint: string | null;
  headers: Record<string, string>;
}

/** Everything a fingerprint is made from; each part may be missing (a failed read says nothing). */
export interface FingerprintInput {
  /** The fields of the run's successful responses, in order (the last one that names a field wins). */
  served: readonly ServedFields[];
  modelEntry: ModelEntry | null;
  info: InfoRead | null;
  /** Ollama's POST /api/show body, read only when /api/version answered. */
  ollamaShow?: Record<string, unknown> | null;
  /** Reads that failed, one line each ("/v1/models: HTTP 401"). */
  unavailable: readonly string[];
  /** The credentials the target's requests carried (secretsOf): redacted from every string of the record. */
  secrets?: readonly string[];
}

/** The fields that make the identity, in the order changes are listed. */
export const IDENTITY_FIELDS = ['server', 'version', 'model', 'modelRevision', 'systemFingerprint', 'maxModelLen', 'ownedBy'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];

export interface Fingerprint {
  /**
   * Server software, named by the info endpoint that answered: "vllm", "sglang", "llama.cpp",
   * "tgi", "ollama"; null without one (displayedServer falls back to the `server` header, which is
   * compared as headers.server: an info endpoint that fails once must not look like another server).
   */
  server: string | null;
  /** The info endpoint's version; null without one (displayedVersion falls back to the headers). */
  version: string | null;
  /** What the responses' `model` named. */
  model: string | null;
  /** The checkpoint: the /models root (a path or repo), SGLang model_path, llama.cpp model_path, TGI model_sha. */
  modelRevision: string | null;
  systemFingerprint: string | null;
  maxModelLen: number | null;
  ownedBy: string | null;
  /** Settings of the engine that change its numerics (kv_cache_dtype, quantization, dtype...), from the info endpoint. */
  settings: Record<string, string>;
  /** `server` and version headers of the responses. */
  headers: Record<string, string>;
  /** /models `created`, for people only (not part of the hash). */
  created: number | null;
  /** What was read: "responses", "/models", and the info path that answered. */
  sources: string[];
  unavailable: string[];
  /** 12 hex digits of SHA-256 over the identity fields, the settings and the headers. */
  hash: string;
}

/** Identity strings longer than this are cut. */
export const FIELD_MAX_CHARS = 200;
/** At most this many settings are kept. */
export const SETTINGS_MAX = 12;

/** Info-endpoint keys that change what the engine computes, by the names the servers use. */
const SETTING_KEYS = [
  'kv_cache_dtype',
  'quantization',
  'dtype',
  'model_dtype',
  'tp_size',
  'attention_backend',
  'speculative_algorithm',
  'chunked_prefill_size',
  'quantization_level',
  'parameter_size',
  'format',
  'family',
] as const;

const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== ''
    ? v.trim().slice(0, FIELD_MAX_CHARS)
    : typeof v === 'number' && Number.isFinite(v)
      ? String(v)
      : null;
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The entry of `model` (or, failing that, the only one) in a /models body; null when the body has none. */
export function modelEntryOf(body: unknown, model: string): ModelEntry | null {
  const data = obj(body)?.['data'];
  if (!Array.isArray(data)) return null;
  const entries = data.map(obj).filter((e): e is Record<string, unknown> => e !== null && typeof e['id'] === 'string');
  const e = entries.find((x) => x['id'] === model) ?? (entries.length === 1 ? entries[0] : undefined);
  if (!e) return null;
  return {
    id: String(e['id']).slice(0, FIELD_MAX_CHARS),
    root: str(e['root']),
    ownedBy: str(e['owned_by']),
    maxModelLen: int(e['max_model_len']) ?? int(e['context_length']) ?? int(e['context_window']),
    created: int(e['created']),
  };
}

/** Whether a body is what the endpoint at `path` answers (a proxy that answers 200 with HTML or `{}` to every path is not). */
export function isInfoBody(path: InfoPath, body: Record<string, unknown>): boolean {
  switch (path) {
    case '/version':
    case '/api/version':
      return str(body['version']) !== null;
    case '/get_server_info':
      return str(body['model_path']) !== null || str(body['version']) !== null;
    case '/props':
      return str(body['model_path']) !== null || str(body['build_info']) !== null || obj(body['default_generation_settings']) !== null;
    case '/info':
      return str(body['model_id']) !== null;
  }
}

/** The `server` header as product and version: "nginx/1.25.3" → nginx, 1.25.3. */
function productOf(header: string | undefined): { server: string | null; version: string | null } {
  if (!header) return { server: null, version: null };
  const m = /^([^/\s]+)(?:\/(\S+))?/.exec(header);
  return { server: m?.[1]?.toLowerCase() ?? null, version: m?.[2] ?? null };
}

/** The server for people and the info series: the info endpoint's name, else the `server` header's product. */
export function displayedServer(fp: Pick<Fingerprint, 'server' | 'headers'>): string | null {
  return fp.server ?? productOf(fp.headers['server']).server;
}

/** The version for people and the info series: the info endpoint's, else a version header's, else the `server` header's. */
export function displayedVersion(fp: Pick<Fingerprint, 'version' | 'headers'>): string | null {
  const header = Object.entries(fp.headers).find(([name]) => name.includes('version'))?.[1] ?? null;
  return fp.version ?? str(header) ?? productOf(fp.headers['server']).version;
}

function infoFields(info: InfoRead): Pick<Fingerprint, 'version' | 'modelRevision' | 'maxModelLen'> {
  const b = info.body;
  switch (info.path) {
    case '/version':
    case '/api/version':
      return { version: str(b['version']), modelRevision: null, maxModelLen: null };
    case '/get_server_info':
      return { version: str(b['version']), modelRevision: str(b['model_path']), maxModelLen: int(b['context_length']) };
    case '/props': {
      const gen = obj(b['default_generation_settings']);
      return { version: str(b['build_info']), modelRevision: str(b['model_path']), maxModelLen: int(gen?.['n_ctx']) ?? int(b['n_ctx']) };
    }
    case '/info':
      return {
        version: str(b['version']) ?? str(b['sha']),
        modelRevision: str(b['model_sha']) ?? str(b['model_id']),
        maxModelLen: int(b['max_total_tokens']),
      };
  }
}

function settingsOf(...bodies: Array<Record<string, unknown> | null | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const body of bodies) {
    if (!body) continue;
    for (const source of [body, obj(body['details']), obj(body['server_args'])]) {
      if (!source) continue;
      for (const key of SETTING_KEYS) {
        const v = str(source[key]);
        if (v !== null && !(key in out) && Object.keys(out).length < SETTINGS_MAX) out[key] = v;
      }
    }
  }
  return out;
}

const sorted = (r: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The hash of a fingerprint's identity: equal records (in any key order) hash alike. */
export function fingerprintHash(fp: Omit<Fingerprint, 'hash' | 'sources' | 'unavailable' | 'created'>): string {
  const identity = [...IDENTITY_FIELDS.map((f) => fp[f]), sorted(fp.settings), sorted(fp.headers)];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 12);
}

/** The normalized record of what a target said about itself in one run. */
export function normalizeFingerprint(input: FingerprintInput): Fingerprint {
  const headers: Record<string, string> = {};
  let model: string | null = null;
  let systemFingerprint: string | null = null;
  for (const s of input.served) {
    Object.assign(headers, s.headers);
    model = str(s.model) ?? model;
    systemFingerprint = str(s.systemFingerprint) ?? systemFingerprint;
  }
  const info = input.info;
  const fromInfo = info ? infoFields(info) : null;
  const entry = input.modelEntry;
  const secrets = input.secrets ?? [];
  const clean = (v: string | null): string | null => (v === null ? null : redactText(v, secrets));
  const cleanAll = (r: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [redactText(k, secrets), redactText(v, secrets)]));
  const record = {
    server: info ? (INFO_ENDPOINTS.find((e) => e.path === info.path)?.server ?? null) : null,
    version: clean(fromInfo?.version ?? null),
    model: clean(model ?? entry?.id ?? null),
    modelRevision: clean(fromInfo?.modelRevision ?? entry?.root ?? null),
    systemFingerprint: clean(systemFingerprint),
    maxModelLen: entry?.maxModelLen ?? fromInfo?.maxModelLen ?? null,
    ownedBy: clean(entry?.ownedBy ?? null),
    settings: cleanAll(settingsOf(info?.body, input.ollamaShow)),
    headers: sorted(cleanAll(headers)),
  };
  const sources = [
    ...(input.served.length > 0 ? ['responses'] : []),
    ...(entry ? ['/models'] : []),
    ...(info ? [info.path] : []),
    ...(input.ollamaShow ? ['/api/show'] : []),
  ];
  return {
    ...record,
    created: entry?.created ?? null,
    sources,
    unavailable: input.unavailable.map((u) => redactText(u, secrets)),
    hash: fingerprintHash(record),
  };
}

/** One field that differs between two fingerprints. */
export interface FieldChange {
  /** An identity field, `settings.NAME` or `headers.NAME`. */
  field: string;
  before: string | number | null;
  after: string | number | null;
}

const fieldsOf = (fp: Fingerprint): Map<string, string | number | null> =>
  new Map<string, string | number | null>([
    ...IDENTITY_FIELDS.map((f) => [f, fp[f]] as const),
    ...Object.entries(fp.settings).map(([k, v]) => [`settings.${k}`, v] as const),
    ...Object.entries(fp.headers).map(([k, v]) => [`headers.${k}`, v] as const),
  ]);

/**
 * What a fresh fingerprint adds to the known one: a field the fresh reads did not give (a read
 * failed, the run had no successful response) keeps its known value, since a failed read says
 * nothing about the server.
 */
export function mergeFingerprint(known: Fingerprint, fresh: Fingerprint): Fingerprint {
  const pick = <T>(f: T | null, k: T | null): T | null => f ?? k;
  const record = {
    server: pick(fresh.server, known.server),
    version: pick(fresh.version, known.version),
    model: pick(fresh.model, known.model),
    modelRevision: pick(fresh.modelRevision, known.modelRevision),
    systemFingerprint: pick(fresh.systemFingerprint, known.systemFingerprint),
    maxModelLen: pick(fresh.maxModelLen, known.maxModelLen),
    ownedBy: pick(fresh.ownedBy, known.ownedBy),
    settings: Object.keys(fresh.settings).length > 0 ? fresh.settings : known.settings,
    headers: Object.keys(fresh.headers).length > 0 ? fresh.headers : known.headers,
  };
  return {
    ...record,
    created: fresh.created ?? known.created,
    sources: fresh.sources,
    unavailable: fresh.unavailable,
    hash: fingerprintHash(record),
  };
}

/**
 * The fields that changed from `before` to `after`, in a stable order. A field known on one side
 * only is not a change (it was learned, or its read failed); run `after` through mergeFingerprint first.
 */
export function diffFingerprints(before: Fingerprint, after: Fingerprint): FieldChange[] {
  const a = fieldsOf(before);
  const b = fieldsOf(after);
  const changes: FieldChange[] = [];
  for (const [field, was] of a) {
    const now = b.get(field) ?? null;
    if (was !== null && now !== null && was !== now) changes.push({ field, before: was, after: now });
  }
  return changes;
}

/** A change as one line for the log and the pages: `version 0.6.3 → 0.7.0, headers.server uvicorn → nginx`. */
export function describeChanges(changes: readonly FieldChange[]): string {
  return changes.map((c) => `${c.field} ${c.before} → ${c.after}`).join(', ');
}
