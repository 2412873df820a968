import type { Context } from 'koa';
import type { Caller } from '../../domain/shared/caller.js';
import type { AuthSession } from '../../schemas/auth.js';
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
