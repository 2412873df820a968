import { randomBytes, timingSafeEqual } from 'node:crypto';
import { signToken, verifyToken } from '../auth/index.js';

/** The `state` of a Google sign-in is good for 10 minutes (RFC 6749 §10.12: CSRF protection). */
export const OAUTH_STATE_TTL_SECONDS = 600;
const PURPOSE = 'google-oauth-state';

/**
 * A signed, expiring `state` (no table: any web process can check it) carrying a random nonce. The
 * browser that asked for the sign-in URL keeps the same nonce in an HttpOnly cookie
 * (api/http/oauth-cookie.ts), so a callback URL made for another browser (an attacker's own
 * sign-in, sent to a victim) is refused: login CSRF.
 */
export function issueOAuthState(key: Buffer | null, now: Date): string {
  return signToken(
    { key, purpose: PURPOSE, now },
    { nonce: randomBytes(16).toString('base64url') },
    OAUTH_STATE_TTL_SECONDS,
  );
}

/** The nonce of a state this process just issued (to put in the browser's cookie); null if unreadable. */
export function oauthStateNonce(state: string | null | undefined): string | null {
  try {
    const claims = JSON.parse(Buffer.from(state?.split('.')[0] ?? '', 'base64url').toString('utf8'));
    return typeof claims?.nonce === 'string' ? claims.nonce : null;
  } catch {
    return null;
  }
}

/** A genuine, unexpired state whose nonce is the one the calling browser holds (constant-time compare). */
export function isValidOAuthState(
  key: Buffer | null,
  now: Date,
  state: string | undefined,
  browserNonce: string | null | undefined,
): boolean {
  const claims = verifyToken<{ nonce?: unknown }>({ key, purpose: PURPOSE, now }, state);
  if (!claims || typeof claims.nonce !== 'string' || !browserNonce) return false;
  const expected = Buffer.from(claims.nonce, 'utf8');
  const given = Buffer.from(browserNonce, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
