import { createHmac, timingSafeEqual } from 'node:crypto';
import { subkey } from '../shared/app-subkeys.js';

/**
 * Short-lived tokens that need no table: `<base64url JSON>.<base64url HMAC-SHA256>`, keyed by a key
 * derived from APP_KEY for the token's purpose, so any web process can check what another one
 * issued. A token made for one use (the OAuth `state`) is refused for another (a simulator code),
 * and APP_KEY itself, which also seals secrets at rest, never keys a MAC.
 */
export interface SignedTokenOptions {
  key: Buffer | null;
  purpose: string;
  now: Date;
}

export function signToken(options: SignedTokenOptions, claims: Record<string, unknown>, ttlSeconds: number): string {
  const exp = Math.floor(options.now.getTime() / 1000) + ttlSeconds;
  const body = Buffer.from(JSON.stringify({ ...claims, exp }), 'utf8').toString('base64url');
  return `${body}.${mac(options, body)}`;
}

/** The claims of a genuine, unexpired token of this purpose; `null` for anything else. */
export function verifyToken<T extends Record<string, unknown>>(
  options: SignedTokenOptions,
  token: string | undefined | null,
): (T & { exp: number }) | null {
  const opened = openToken<T>(options, token);
  return opened && !opened.expired ? opened.claims : null;
}

/**
 * A genuine token of this purpose, expired or not; `null` when it was altered or never issued.
 * For callers that answer an expired token differently from a forged one (download links: 410).
 */
export function openToken<T extends Record<string, unknown>>(
  options: SignedTokenOptions,
  token: string | undefined | null,
): { claims: T & { exp: number }; expired: boolean } | null {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  // Compared as text: decoding base64url first would accept other spellings of the same bytes.
  const expected = Buffer.from(mac(options, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: (T & { exp: number }) | null = null;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!claims || typeof claims.exp !== 'number') return null;
  return { claims, expired: claims.exp * 1000 <= options.now.getTime() };
}

function mac(options: SignedTokenOptions, body: string): string {
  if (!options.key) throw new Error('APP_KEY is not set: signed tokens need it');
  return createHmac('sha256', subkey(options.key, `signed-token:${options.purpose}`))
    .update(`${options.purpose}.${body}`, 'utf8')
    .digest('base64url');
}
