import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * True when `presented` is exactly `token`. Both sides are hashed first so the comparison
 * takes the same time whatever the length or content.
 */
export function tokenMatches(presented: string, token: string): boolean {
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}

/** True when the Authorization header carries exactly `Bearer <token>`. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  // The scheme is case-insensitive (RFC 9110); the token is not.
  const presented = header && /^bearer /i.test(header) ? header.slice(7).trim() : '';
  return tokenMatches(presented, token);
}
