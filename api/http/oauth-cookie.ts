import type { Context } from 'koa';
import { OAUTH_STATE_TTL_SECONDS } from '../../domain/users/index.js';

/**
 * The browser's half of a Google sign-in: the nonce of the `state` it was given, in an HttpOnly
 * cookie. SameSite=Lax, not Strict: the callback is a top-level navigation coming back from Google,
 * which Strict would send without the cookie. Scoped to the Google routes and to the state's life.
 */
export const OAUTH_COOKIE = 'einvoice_oauth_nonce';
const OAUTH_COOKIE_PATH = '/api/v1/auth/google';

const options = { path: OAUTH_COOKIE_PATH, secure: true, httpOnly: true, sameSite: 'lax', overwrite: true } as const;

/** Cookies are always Secure; Koa refuses that on plain HTTP unless told the hop is trusted. */
function secureCookies(ctx: Context) {
  (ctx.cookies as unknown as { secure: boolean }).secure = true;
  return ctx.cookies;
}

export function setOAuthCookie(ctx: Context, nonce: string): void {
  secureCookies(ctx).set(OAUTH_COOKIE, nonce, { ...options, maxAge: OAUTH_STATE_TTL_SECONDS * 1000 });
}

/** The state is used once: the callback forgets it. */
export function clearOAuthCookie(ctx: Context): void {
  secureCookies(ctx).set(OAUTH_COOKIE, '', { ...options, expires: new Date(0) });
}

export const oauthNonceOf = (ctx: Context): string | null => ctx.cookies.get(OAUTH_COOKIE) || null;
