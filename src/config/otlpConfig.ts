/**
 * The otlp section made final: each key the file leaves out taken from the standard OTLP
 * exporter variables, the endpoints made into the URLs of each signal, and the resource's name
 * and attributes read from OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Messages name the key
 * or the variable, never a value: an endpoint or a header may carry a token.
 */
import { DEFAULTS } from './defaults.js';
import type { SectionValue } from './specTypes.js';
/** The environment read (ConfigEnv of validateOptions.ts, which imports types.ts: written out here to keep out of a circle). */
type ConfigEnv = Readonly<Record<string, string | undefined>>;

export interface OtlpConfig extends Omit<SectionValue<'otlp'>, 'endpoint' | 'headers'> {
  /** Where evaluation events go (…/v1/logs); null: no events are exported. */
  logsUrl: string | null;
  /** Where the client metrics go (…/v1/metrics); null when `metrics` is false or no endpoint was given. */
  metricsUrl: string | null;
  /** Sent with each export; never logged, never shown (redactConfig hides every value). */
  headers: Record<string, string>;
  /** The resource's service.name: OTEL_SERVICE_NAME, else service.name of OTEL_RESOURCE_ATTRIBUTES, else coherency-exporter. */
  serviceName: string;
  /** The other resource attributes of OTEL_RESOURCE_ATTRIBUTES. */
  resourceAttributes: Record<string, string>;
}

/** Export off: what a config without endpoint has, and what hand-built configs (tests) use. */
export const OTLP_OFF: OtlpConfig = Object.freeze({
  logsUrl: null,
  metricsUrl: null,
  headers: {},
  metrics: DEFAULTS.otlp.metrics,
  timeoutSeconds: DEFAULTS.otlp.timeoutSeconds,
  maxQueueSize: DEFAULTS.otlp.maxQueueSize,
  exportIntervalSeconds: DEFAULTS.otlp.exportIntervalSeconds,
  serviceName: DEFAULTS.otlp.serviceName,
  resourceAttributes: {},
}) as OtlpConfig;

type Add = (at: string, message: string) => void;

/** An http(s) URL without user:password@ (and, for a base URL, without query or fragment); null when wrong (reported). */
function checkUrl(raw: string, at: string, add: Add, base: boolean): string | null {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {}
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    add(at, 'must be an http or https URL (http://127.0.0.1:4318)');
  else if (url.username !== '' || url.password !== '') add(at, 'must not contain credentials (user:password@); send a header instead');
  else if (base && (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')))
    add(at, 'must not contain a query string or fragment (/v1/logs and /v1/metrics are appended to it)');
  else return base ? raw.trim().replace(/\/+$/, '') : raw.trim();
  return null;
}

/**
 * A list of key=value pairs separated by commas, percent-encoded (the W3C Baggage form that
 * OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES use); null when malformed (reported).
 */
export function parseKeyValues(raw: string, at: string, add: Add): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    let key = '';
    let value = '';
    try {
      key = decodeURIComponent(part.slice(0, eq).trim());
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      key = '';
    }
    if (eq <= 0 || key === '') {
      add(at, 'must be a comma-separated list of key=value pairs (percent-encoded)');
      return null;
    }
    out[key] = value;
  }
  return out;
}

/** A header name an HTTP client sends, and a value without line breaks or control characters. */
function checkHeaders(headers: Record<string, string>, at: string, add: Add): Record<string, string> | null {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || !/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) {
      add(at, 'must hold header names and values an HTTP client can send (no line breaks or control characters)');
      return null;
    }
  }
  return headers;
}

function envValue(env: ConfigEnv, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

/** One signal's URL: the file's base endpoint, else the signal's variable as given, else the general variable's base. */
function signalUrl(
  section: { endpoint: string | null },
  given: boolean,
  env: ConfigEnv,
  signal: 'LOGS' | 'METRICS',
  add: Add,
): string | null {
  const path = signal === 'LOGS' ? 'v1/logs' : 'v1/metrics';
  if (given) return section.endpoint === null ? null : `${section.endpoint}/${path}`;
  const own = `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`;
  const ownValue = envValue(env, own);
  if (ownValue !== undefined) return checkUrl(ownValue, own, add, false);
  const general = envValue(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (general === undefined) return null;
  const base = checkUrl(general, 'OTEL_EXPORTER_OTLP_ENDPOINT', add, true);
  return base === null ? null : `${base}/${path}`;
}

/**
 * The otlp section as the daemon takes it. `raw` is the section as written ({} when absent):
 * a key it gives wins over its variable; a key it leaves out is read from the variable.
 */
export function resolveOtlp(section: SectionValue<'otlp'>, raw: Record<string, unknown>, env: ConfigEnv, add: Add): OtlpConfig {
  const given = (key: string) => raw[key] !== undefined && raw[key] !== null;
  let endpoint = section.endpoint;
  if (given('endpoint') && endpoint !== null) endpoint = checkUrl(endpoint, 'otlp.endpoint', add, true);
  const base = { endpoint };
  // null written out in the file turns export off whatever the variables say
  const fileSays = given('endpoint') || (raw['endpoint'] === null && 'endpoint' in raw);
  const logsUrl = signalUrl(base, fileSays, env, 'LOGS', add);
  const metricsUrl = section.metrics ? signalUrl(base, fileSays, env, 'METRICS', add) : null;

  let headers: Record<string, string> = {};
  if (section.headers !== null) headers = checkHeaders(section.headers, 'otlp.headers', add) ?? {};
  else {
    const h = envValue(env, 'OTEL_EXPORTER_OTLP_HEADERS');
    const parsed = h === undefined ? {} : parseKeyValues(h, 'OTEL_EXPORTER_OTLP_HEADERS', add);
    headers = parsed === null ? {} : (checkHeaders(parsed, 'OTEL_EXPORTER_OTLP_HEADERS', add) ?? {});
  }

  const attrsRaw = envValue(env, 'OTEL_RESOURCE_ATTRIBUTES');
  const attributes = (attrsRaw === undefined ? {} : parseKeyValues(attrsRaw, 'OTEL_RESOURCE_ATTRIBUTES', add)) ?? {};
  const { 'service.name': attrName, ...resourceAttributes } = attributes;
  const serviceName = envValue(env, 'OTEL_SERVICE_NAME') ?? (attrName?.trim() ? attrName.trim() : DEFAULTS.otlp.serviceName);

  return {
    logsUrl,
    metricsUrl,
    headers,
    metrics: section.metrics,
    timeoutSeconds: section.timeoutSeconds,
    maxQueueSize: section.maxQueueSize,
    exportIntervalSeconds: section.exportIntervalSeconds,
    serviceName,
    resourceAttributes,
  };
}
