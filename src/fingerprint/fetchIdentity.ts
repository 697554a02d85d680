import type { HttpExchange, HttpFn, HttpOptions } from '../client/httpExchange.js';
import { joinSecrets, secretsOf } from '../client/redactSecrets.js';
import {
  type Fingerprint,
  INFO_ENDPOINTS,
  type InfoPath,
  type InfoRead,
  isInfoBody,
  type ModelEntry,
  modelEntryOf,
  normalizeFingerprint,
  type ServedFields,
} from './normalizeFingerprint.js';

/**
 * Reads what a target says about itself besides its responses: its /models entry and the info
 * endpoint of its server. Every URL is built from the configured baseUrl alone (its origin for
 * the info endpoints), never from anything a server answered; the HTTP function passed in does
 * not follow redirects (httpExchange), so a 3xx is an unavailable read, not a request elsewhere.
 *
 * Credentials: GET {baseUrl}/models carries the headers the chat requests carry (the key and the
 * target's own headers), as the conformance probe's /models check does: it is under the path the
 * key is meant for. The info endpoints sit at the origin's root, outside that path (on a shared
 * gateway, another application): they are read with no key and none of the target's headers.
 */

/** What a read may take: a short timeout and a small body. */
export const IDENTITY_TIMEOUTS = { connectSeconds: 2, idleSeconds: 2, totalSeconds: 3 } as const;
export const IDENTITY_MAX_BYTES = 64 * 1024;

export interface IdentityTarget {
  baseUrl: string;
  model: string;
  /** The headers of the target's chat requests (authorization, its configured headers): sent to {baseUrl}/models only. */
  headers: Record<string, string>;
  /**
   * The other secrets of the configuration (configSecrets.ts), redacted from every read besides
   * the target's own: targets behind one origin can echo each other's keys.
   */
  secrets?: readonly string[];
}

/** What a target's reads and fingerprint are redacted with: the credentials of its headers and the configuration's other secrets. */
export function identitySecrets(target: IdentityTarget): string[] {
  return joinSecrets(secretsOf(target.headers), target.secrets);
}

export interface IdentityReadOptions {
  http: HttpFn;
  /** The info endpoint that answered last time: read alone (null: try each). */
  infoPath?: InfoPath | null;
  signal?: AbortSignal;
  dispatcher?: HttpOptions['dispatcher'];
  userAgent?: string;
}

export interface IdentityReads {
  modelEntry: ModelEntry | null;
  info: InfoRead | null;
  ollamaShow: Record<string, unknown> | null;
  /** The identity headers of the /models answer (the info endpoints' are not kept: at the origin's root, another application may answer). */
  headers: Record<string, string>;
  unavailable: string[];
}

/** The reads of a target whose reading failed as a whole (its key, its URL): the reason is all they hold. */
export function failedReads(err: Error): IdentityReads {
  return { modelEntry: null, info: null, ollamaShow: null, headers: {}, unavailable: [`reads failed: ${err.message}`] };
}

/** Said in `unavailable` when the target's reads are turned off, so that a page or a baseline tells why the fingerprint is thin. */
export const READS_OFF = 'reads off: targets[].fingerprintReads is false (the fingerprint comes from the answers alone)';

/** The reads of a target whose reads are turned off (targets[].fingerprintReads: false): nothing was asked. */
export function readsOff(): IdentityReads {
  return { modelEntry: null, info: null, ollamaShow: null, headers: {}, unavailable: [READS_OFF] };
}

/**
 * The fingerprint of a target's reads and of what its successful responses said (`served`);
 * the headers of /models stand in when no response of the run succeeded. `secrets` are the
 * credentials of the target's requests with the configuration's other secrets (identitySecrets):
 * none of them may pass into the record, whatever the target echoed.
 */
export function fingerprintOfReads(served: readonly ServedFields[], reads: IdentityReads, secrets: readonly string[]): Fingerprint {
  const fromModels = Object.keys(reads.headers).length > 0 ? [{ model: null, systemFingerprint: null, headers: reads.headers }] : [];
  return normalizeFingerprint({
    served: served.length > 0 ? served : fromModels,
    modelEntry: reads.modelEntry,
    info: reads.info,
    ollamaShow: reads.ollamaShow,
    unavailable: reads.unavailable,
    secrets,
  });
}

/** The scheme, host and port of a baseUrl; an invalid one throws a RangeError naming it. */
export function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RangeError(`baseUrl ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`baseUrl ${JSON.stringify(baseUrl)} is not http(s)`);
  return url.origin;
}

type Answer = { ok: true; body: Record<string, unknown>; headers: Record<string, string> } | { ok: false; why: string };

function answerOf(x: HttpExchange): Answer {
  if (x.error) return { ok: false, why: `${x.error.type}${x.status !== null ? ` (HTTP ${x.status})` : ''}` };
  if (x.status === null) return { ok: false, why: 'no answer' };
  if (x.status >= 300 && x.status < 400) return { ok: false, why: `HTTP ${x.status} redirect not followed` };
  if (x.status < 200 || x.status >= 300) return { ok: false, why: `HTTP ${x.status}` };
  try {
    const body: unknown = JSON.parse(x.body);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, why: 'not a JSON object' };
    return { ok: true, body: body as Record<string, unknown>, headers: x.identityHeaders ?? {} };
  } catch {
    return { ok: false, why: 'not JSON' };
  }
}

/** Reads the /models entry and the info endpoint; never throws (a failed read is a line of `unavailable`). */
export async function fetchIdentity(target: IdentityTarget, options: IdentityReadOptions): Promise<IdentityReads> {
  const out: IdentityReads = { modelEntry: null, info: null, ollamaShow: null, headers: {}, unavailable: [] };
  let origin: string;
  try {
    origin = originOf(target.baseUrl);
  } catch (err) {
    out.unavailable.push((err as Error).message);
    return out;
  }
  const base = target.baseUrl.replace(/\/+$/, '');
  const plain: Record<string, string> = { accept: 'application/json', ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) };
  const httpOptions: HttpOptions = {
    timeouts: IDENTITY_TIMEOUTS,
    maxBytes: IDENTITY_MAX_BYTES,
    // the info endpoints are read without the key, and a server there may still echo it
    secrets: identitySecrets(target),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  };
  const read = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: Record<string, unknown>) => {
    try {
      return answerOf(await options.http({ method, url, headers, ...(body ? { body } : {}) }, httpOptions));
    } catch (err) {
      return { ok: false, why: `internal: ${(err as Error).message}` } as Answer;
    }
  };

  const paths = INFO_ENDPOINTS.filter((e) => !options.infoPath || e.path === options.infoPath);
  const [models, ...infos] = await Promise.all([
    read('GET', `${base}/models`, { ...target.headers, ...plain }),
    ...paths.map((e) => read('GET', `${origin}${e.path}`, plain)),
  ]);
  if (models?.ok) {
    Object.assign(out.headers, models.headers);
    out.modelEntry = modelEntryOf(models.body, target.model);
    if (!out.modelEntry) out.unavailable.push(`/models: no entry for ${target.model}`);
  } else if (models) out.unavailable.push(`/models: ${models.why}`);

  const answered = paths.findIndex((e, i) => {
    const a = infos[i];
    return a?.ok === true && isInfoBody(e.path, a.body);
  });
  const hit = answered >= 0 ? infos[answered] : undefined;
  const endpoint = answered >= 0 ? paths[answered] : undefined;
  if (hit?.ok && endpoint) {
    out.info = { path: endpoint.path, body: hit.body };
    if (endpoint.path === '/api/version') {
      const show = await read('POST', `${origin}/api/show`, plain, { model: target.model });
      if (show.ok) out.ollamaShow = show.body;
      else out.unavailable.push(`/api/show: ${show.why}`);
    }
  } else {
    out.unavailable.push(`info: none of ${paths.map((e) => e.path).join(', ')} answered`);
  }
  return out;
}
