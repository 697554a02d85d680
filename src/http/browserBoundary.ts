/**
 * Requests that start work or change state (/probe in any method, /-/reload, /-/login,
 * /-/logout) must come from the daemon's own pages or from a client that is not a browser.
 * A browser says where a request came from: Sec-Fetch-Site (all current browsers), else
 * Origin, else Referer; a client that sends none of them (curl, Prometheus, scripts) is not a
 * page of another site. Before, a GET /probe from an <img> on any site started a paid run, and a
 * same-site page (another port of the host, a sibling subdomain) could post with the cookie.
 */
export interface FetchHeaders {
  'sec-fetch-site'?: string | undefined;
  'sec-fetch-mode'?: string | undefined;
  'sec-fetch-dest'?: string | undefined;
  origin?: string | undefined;
  referer?: string | undefined;
}

/** What a browser may fetch /probe as with GET: a page it navigates to, or a fetch() of our own. */
const GET_DESTINATIONS = new Set(['document', 'empty']);

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Why the request is refused as coming from another origin, or null when it may go on.
 * `ownOrigin` is the daemon's origin as this request reached it ("http://127.0.0.1:9464").
 * `getStartsWork`: a GET that starts a run (GET /probe), which a browser must not send as a
 * subresource (an image, a script, a frame) even from our own origin.
 */
export function crossOriginRefusal(h: FetchHeaders, ownOrigin: string, getStartsWork: boolean): string | null {
  const site = h['sec-fetch-site']?.toLowerCase();
  if (getStartsWork) {
    const mode = h['sec-fetch-mode']?.toLowerCase();
    const dest = h['sec-fetch-dest']?.toLowerCase();
    if (mode === 'no-cors' || (dest !== undefined && !GET_DESTINATIONS.has(dest))) {
      return `a browser fetched this as ${dest ?? mode} (Sec-Fetch-Dest/Mode): runs start from a page or a client, not an embedded resource`;
    }
  }
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return null;
    return `sent from a page of another origin (Sec-Fetch-Site: ${site.slice(0, 20)})`;
  }
  const own = originOf(ownOrigin);
  if (h.origin !== undefined) {
    if (originOf(h.origin) === own && own !== null) return null;
    return `sent from a page of another origin (Origin: ${h.origin.slice(0, 80)}, this server is ${ownOrigin})`;
  }
  if (h.referer !== undefined) {
    if (originOf(h.referer) === own && own !== null) return null;
    return `sent from a page of another origin (Referer of ${originOf(h.referer) ?? 'another kind'}, this server is ${ownOrigin})`;
  }
  return null;
}
