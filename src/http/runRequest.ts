/**
 * Which requests may start a run on /probe. A web page of another site can make a browser send
 * a GET (an <img>, a no-cors fetch) or a POST of a form (urlencoded, multipart, text/plain)
 * without asking the daemon first, and on plain HTTP to a name Chromium sends none of the
 * headers the browser boundary reads (no Sec-Fetch-*, no Origin on a GET, no Referer under
 * no-referrer): an <img> started 3 runs out of 3. What such a page cannot send without a CORS
 * preflight, which the daemon never grants, is an Authorization header or a JSON body. So a run
 * starts only for:
 *
 * - a request with the right bearer token (curl, CI, scripts), GET or POST;
 * - a POST with `content-type: application/json`;
 * - a POST of the daemon's own form (urlencoded) carrying its CSRF token (the run button).
 */
export interface RunRequest {
  method: string;
  /** The Content-Type header, if any. */
  contentType: string | undefined;
  /** True when the request carried the server's token as `Authorization: Bearer`. */
  bearer: boolean;
  /** True when a form body carried the CSRF token of this browser's pages. */
  csrf: boolean;
}

export interface RunRefusal {
  status: 403 | 405 | 415;
  code: 'USE_POST' | 'JSON_BODY_REQUIRED' | 'CSRF_TOKEN_REQUIRED';
  message: string;
}

/** The media type of a Content-Type value, lower case, without parameters ('' when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** A curl line that starts the run, for messages and the GET page. */
export function curlExample(origin: string, target: string, probe: string): string {
  const body = JSON.stringify({ target, probe }).replace(/'/g, "'\\''");
  return `curl -X POST -H 'content-type: application/json' -d '${body}' ${origin}/probe`;
}

/** Why this request may not start a run, or null when it may. */
export function runRefusal(r: RunRequest): RunRefusal | null {
  if (r.bearer) return null;
  const method = r.method.toUpperCase();
  if (method !== 'POST') {
    return {
      status: 405,
      code: 'USE_POST',
      message:
        'GET /probe does not start a run (any web page could make a browser send it): POST it with a JSON body ' +
        '{"target": …, "probe": …} and content-type: application/json, or send the token as Authorization: Bearer',
    };
  }
  const type = mediaType(r.contentType);
  if (type === 'application/json') return null;
  if (type === 'application/x-www-form-urlencoded') {
    if (r.csrf) return null;
    return {
      status: 403,
      code: 'CSRF_TOKEN_REQUIRED',
      message: "a form post starts a run only from the daemon's own page (its csrf field was missing or stale: reload the page)",
    };
  }
  return {
    status: 415,
    code: 'JSON_BODY_REQUIRED',
    message: `POST /probe takes a JSON body (content-type: application/json), got ${type === '' ? 'no content type' : `"${type.slice(0, 60)}"`}`,
  };
}
