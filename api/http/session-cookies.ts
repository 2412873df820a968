import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';

/** The dashboard's cookie session (spec "Authentication", item 1). */
export const SESSION_COOKIE = 'einvoice_session';
/** Double-submit CSRF token: a readable cookie the dashboard echoes in the header (Sanctum's names). */
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const base = { path: '/', secure: true, sameSite: 'strict', overwrite: true } as const;

/** Cookies are always Secure; Koa refuses that on plain HTTP unless told the hop is trusted. */
function secureCookies(ctx: Context) {
  (ctx.cookies as unknown as { secure: boolean }).secure = true;
  return ctx.cookies;
}

export function setSessionCookie(ctx: Context, token: string, expires: Date): void {
  secureCookies(ctx).set(SESSION_COOKIE, token, { ...base, httpOnly: true, expires });
}

export function clearSessionCookie(ctx: Context): void {
  secureCookies(ctx).set(SESSION_COOKIE, '', { ...base, httpOnly: true, expires: new Date(0) });
}

/** `GET /sanctum/csrf-cookie`: a fresh random token, readable by the dashboard's script. */
export function issueCsrfCookie(ctx: Context): void {
  secureCookies(ctx).set(CSRF_COOKIE, randomBytes(32).toString('base64url'), { ...base, httpOnly: false });
}

export const sessionCookieOf = (ctx: Context): string | undefined => ctx.cookies.get(SESSION_COOKIE) || undefined;

/** True when the request carries the CSRF cookie and the same value in the header. */
export function csrfMatches(ctx: Context): boolean {
  const cookie = ctx.cookies.get(CSRF_COOKIE);
  const header = ctx.get(CSRF_HEADER);
  if (!cookie || !header) return false;
  const a = Buffer.from(safeDecode(cookie));
  const b = Buffer.from(safeDecode(header));
  return a.length > 0 && a.length === b.length && timingSafeEqual(a, b);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return '';
  }
}

/** Cookie-authenticated mutations need the CSRF header: a cross-site page cannot read the cookie. */
export const needsCsrf = (ctx: Context): boolean => !SAFE_METHODS.has(ctx.method);
