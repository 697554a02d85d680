import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The token the daemon's own forms carry so that a form post can start a run: a page of another
 * site can make a browser post a form to the daemon (no preflight, and on plain HTTP to a name
 * Chromium sends neither Sec-Fetch-* nor always a usable Origin), but it cannot read the
 * daemon's pages, so it cannot know this value. It is an HMAC of the browser's session id (''
 * without one) under a key made at start: a restart, or a new session, changes it, and nothing
 * needs to be stored.
 */
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    this.key = key;
  }

  /** The token for pages served to the browser holding `session` (the session cookie's value, or undefined). */
  token(session: string | undefined): string {
    return createHmac('sha256', this.key)
      .update(`csrf\u0000${session ?? ''}`)
      .digest('base64url');
  }

  /** Whether `presented` is the token for `session`, compared in constant time. */
  valid(presented: unknown, session: string | undefined): boolean {
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > 100) return false;
    const want = Buffer.from(this.token(session));
    const got = Buffer.from(presented);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}
