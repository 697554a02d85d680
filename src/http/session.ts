import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The browser session of the pages when server.authToken is set: a browser cannot send an
 * Authorization header from a link or a form, so the login form trades the token for a
 * cookie. The cookie holds an expiry and an HMAC of it keyed by the token, never the token
 * itself; a new token (config reload) ends every session. HttpOnly keeps it from scripts,
 * SameSite=Strict from requests started by other sites.
 */
export const SESSION_COOKIE = 'coherency_session';
export const SESSION_SECONDS = 12 * 3600;

const signature = (token: string, expires: number) =>
  createHmac('sha256', token).update(`coherency-exporter session v1 ${expires}`).digest('base64url');

/** The cookie value of a session ending SESSION_SECONDS after nowMs. */
export function sessionValue(token: string, nowMs: number): string {
  const expires = Math.floor(nowMs / 1000) + SESSION_SECONDS;
  return `v1.${expires}.${signature(token, expires)}`;
}

/** The Set-Cookie header that starts a session (Secure when the page came over https). */
export function sessionCookie(token: string, nowMs: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${sessionValue(token, nowMs)}; Max-Age=${SESSION_SECONDS}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header that ends it. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`;
}

/** The value of one cookie of a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** True when the Cookie header carries an unexpired session signed with `token`. */
export function sessionValid(cookieHeader: string | undefined, token: string, nowMs: number): boolean {
  const value = cookieValue(cookieHeader, SESSION_COOKIE);
  const m = value ? /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
  if (!m) return false;
  const expires = Number(m[1]);
  if (expires * 1000 <= nowMs || expires * 1000 > nowMs + SESSION_SECONDS * 1000) return false;
  const expected = Buffer.from(signature(token, expires));
  const presented = Buffer.from(m[2]!);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
