import type { Context } from 'koa';
import type { Caller } from '../../domain/shared/caller.js';
import { oauthStateNonce } from '../../domain/users/index.js';
import type { AuthSession, GoogleSignInUrl } from '../../schemas/auth.js';
import { clearOAuthCookie, setOAuthCookie } from './oauth-cookie.js';
import { clearSessionCookie, issueCsrfCookie, setSessionCookie } from './session-cookies.js';

// Respond hooks (RouteSpec.respond) of the dashboard's session routes: the cookies live here, at
// the HTTP edge; the operations only issue and revoke the credentials.

/**
 * Sign-in routes: a cookie session goes into the HttpOnly cookie and never into the body
 * (`token: null`), so the dashboard's script cannot read or leak it; a bearer token goes in the body.
 */
export function respondWithSignIn(ctx: Context, output: unknown): unknown {
  const session = output as AuthSession;
  ctx.set('Cache-Control', 'no-store');
  if (session.token_type !== 'session' || !session.token) return session;
  setSessionCookie(ctx, session.token, new Date(session.expires_at));
  return { ...session, token: null };
}

/** Logout of a cookie session also clears the cookie. */
export function respondToLogout(ctx: Context, output: unknown, caller: Caller): unknown {
  if (caller.credential?.type === 'session') clearSessionCookie(ctx);
  return output;
}

/** `GET /sanctum/csrf-cookie`: 204 with the readable XSRF-TOKEN cookie. */
export function respondWithCsrfCookie(ctx: Context): undefined {
  issueCsrfCookie(ctx);
  return undefined;
}

/** `GET /v1/auth/google`: the browser keeps the state's nonce, which the callback must bring back. */
export function respondWithGoogleUrl(ctx: Context, output: unknown): unknown {
  const { url } = output as GoogleSignInUrl;
  const nonce = oauthStateNonce(new URL(url).searchParams.get('state'));
  if (nonce) setOAuthCookie(ctx, nonce);
  ctx.set('Cache-Control', 'no-store');
  return output;
}

/** The Google callback: signed in, and the state's cookie is spent. */
export function respondWithGoogleSignIn(ctx: Context, output: unknown): unknown {
  clearOAuthCookie(ctx);
  return respondWithSignIn(ctx, output);
}
