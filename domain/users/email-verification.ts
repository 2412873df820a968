import { openToken, signToken } from '../auth/index.js';

/** A verification link works for 24 hours. */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 3600;
const PURPOSE = 'email-verification';

interface Claims extends Record<string, unknown> {
  /** The user and its workspace: the token is looked up without a cross-tenant read. */
  uid: string;
  tid: string;
  /** The address the mail went to: a token stops working if the account's e-mail is another. */
  email: string;
}

/**
 * A signed, expiring verification token (HMAC under APP_KEY, its own purpose, so no other signed
 * token passes for one). It is single use through the account: once the e-mail is verified, the
 * token (and any other one for the account) is refused.
 */
export function issueEmailVerificationToken(
  key: Buffer | null,
  now: Date,
  user: { id: string; tenantId: string; email: string },
): { token: string; expiresAt: Date } {
  const token = signToken(
    { key, purpose: PURPOSE, now },
    { uid: user.id, tid: user.tenantId, email: user.email.toLowerCase() },
    EMAIL_VERIFICATION_TTL_SECONDS,
  );
  return { token, expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_SECONDS * 1000) };
}

/** The claims of a genuine, unexpired token; null when it was forged, altered or has expired. */
export function openEmailVerificationToken(key: Buffer | null, now: Date, token: string): Claims | null {
  const opened = openToken<Claims>({ key, purpose: PURPOSE, now }, token);
  if (!opened || opened.expired) return null;
  const { uid, tid, email } = opened.claims;
  return typeof uid === 'string' && typeof tid === 'string' && typeof email === 'string' ? opened.claims : null;
}
