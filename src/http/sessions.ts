import { createHash, randomBytes } from 'node:crypto';

/**
 * The browser sessions of the pages when server.authToken is set: a browser cannot send an
 * Authorization header from a link or a form, so the login form trades the token for a cookie
 * holding a random session id (never the token). Sessions live here, server-side, so logout
 * ends one for good and a token change ends them all (before, the cookie was an HMAC of its
 * expiry: it stayed valid for 12 h after logout). They do not survive a restart.
 * HttpOnly keeps the cookie from scripts, SameSite=Strict from requests other sites start,
 * Secure when the page came over HTTPS (directly or through a proxy in server.trustProxy).
 */
export const SESSION_COOKIE = 'coherency_session';
export const SESSION_SECONDS = 12 * 3600;
/** Sessions kept at once; the oldest is ended beyond it (each one took a correct token to make). */
const MAX_SESSIONS = 10_000;

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64url');

export class SessionStore {
  /** sha256 of the cookie value → expiry (ms); only digests are kept. Insertion order = age. */
  private readonly sessions = new Map<string, number>();
  private tokenDigest: string | null = null;

  /** Ends every session when the token is not the one the sessions were made under. */
  private bind(token: string): void {
    const d = digest(token);
    if (this.tokenDigest !== d) {
      this.sessions.clear();
      this.tokenDigest = d;
    }
  }

  /** A new session under `token`; returns the cookie value. */
  create(token: string, nowMs: number): string {
    this.bind(token);
    const value = `v2.${randomBytes(32).toString('base64url')}`;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    this.sessions.set(digest(value), nowMs + SESSION_SECONDS * 1000);
    return value;
  }

  /** True when the Cookie header carries a live session made under `token`. */
  valid(cookieHeader: string | undefined, token: string, nowMs: number): boolean {
    this.bind(token);
    const value = cookieValue(cookieHeader, SESSION_COOKIE);
    if (!value || !/^v2\.[A-Za-z0-9_-]{43}$/.test(value)) return false;
    const key = digest(value);
    const expires = this.sessions.get(key);
    if (expires === undefined) return false;
    if (expires <= nowMs) {
      this.sessions.delete(key);
      return false;
    }
    return true;
  }

  /** Ends the session the Cookie header carries, if any (logout). */
  revoke(cookieHeader: string | undefined): void {
    const value = cookieValue(cookieHeader, SESSION_COOKIE);
    if (value) this.sessions.delete(digest(value));
  }

  get size(): number {
    return this.sessions.size;
  }
}

/** The Set-Cookie header that starts a session. */
export function sessionCookie(value: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Max-Age=${SESSION_SECONDS}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header that ends it. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
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
