import { randomBytes } from 'node:crypto';
import { signToken, verifyToken } from '../auth/signed-token.js';

/** The `state` of a Google sign-in is good for 10 minutes (RFC 6749 §10.12: CSRF protection). */
export const OAUTH_STATE_TTL_SECONDS = 600;
const PURPOSE = 'google-oauth-state';

/** A signed, expiring `state`: no table, any web process can check it. */
export const issueOAuthState = (key: Buffer | null, now: Date): string =>
  signToken({ key, purpose: PURPOSE, now }, { nonce: randomBytes(16).toString('base64url') }, OAUTH_STATE_TTL_SECONDS);

export const isValidOAuthState = (key: Buffer | null, now: Date, state: string | undefined): boolean =>
  verifyToken({ key, purpose: PURPOSE, now }, state) !== null;
