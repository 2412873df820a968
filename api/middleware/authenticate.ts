import type { Context } from 'koa';
import { resolveAccessToken, resolveApiKey } from '../../domain/auth/index.js';
import { AppError } from '../../domain/shared/app-error.js';
import { anonymousCaller, type Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { oauthNonceOf } from '../http/oauth-cookie.js';
import type { AuthScheme, RouteSpec } from '../http/route-spec.js';
import { csrfMatches, needsCsrf, sessionCookieOf } from '../http/session-cookies.js';
import type { RequestState } from './request-context.js';

/** The credentials a request carries, read once from its headers and cookies. */
export interface Presented {
  /** `X-API-Key`, its aliases, or a key-shaped `Authorization: Bearer` value. */
  secretKey?: string;
  publishableKey?: string;
  /** A non-key `Authorization: Bearer` value: a user's access token or a tenant's login token. */
  accessToken?: string;
  session?: string;
}

/** Header names that carry a secret key (spec "Authentication", items 3 and 5). */
const KEY_HEADERS = ['X-API-Key', 'X-Tenant-Key', 'X-Service-API-Key'];
const KEY_SHAPED = /^(sk|pk|tk)_/;

export function presentedCredentials(ctx: Context): Presented {
  const presented: Presented = {};
  for (const header of KEY_HEADERS) {
    const value = ctx.get(header).trim();
    if (value) {
      presented.secretKey = value;
      break;
    }
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
  if (bearer && KEY_SHAPED.test(bearer)) presented.secretKey ??= bearer;
  else if (bearer) presented.accessToken = bearer;
  const publishable = ctx.get('X-Publishable-Key').trim();
  if (publishable) presented.publishableKey = publishable;
  const session = sessionCookieOf(ctx);
  if (session) presented.session = session;
  return presented;
}

type Options = Parameters<typeof resolveApiKey>[3];

/** Resolves the credential of one scheme; `null` when the request does not carry that credential. */
export type Authenticator = (
  ctx: Context,
  presented: Presented,
  deps: Deps,
  options: Options,
) => Promise<Caller | null>;

const secretKey: Authenticator = async (_ctx, presented, deps, options) =>
  presented.secretKey ? resolveApiKey(deps.db, 'secret', presented.secretKey, options) : null;

/** One authenticator per scheme; a route lists the schemes it accepts, tried in that order. */
export const AUTHENTICATORS: Record<Exclude<AuthScheme, 'none'>, Authenticator> = {
  api_key: secretKey,
  tenant_key: async (ctx, presented, deps, options) =>
    (await secretKey(ctx, presented, deps, options)) ??
    (presented.accessToken ? resolveAccessToken(deps.db, presented.accessToken, 'bearer', options) : null),
  bearer: async (_ctx, presented, deps, options) =>
    presented.accessToken ? resolveAccessToken(deps.db, presented.accessToken, 'bearer', options) : null,
  publishable_key: async (_ctx, presented, deps, options) =>
    presented.publishableKey ? resolveApiKey(deps.db, 'publishable', presented.publishableKey, options) : null,
  cookie: async (ctx, presented, deps, options) => {
    if (!presented.session) return null;
    const caller = await resolveAccessToken(deps.db, presented.session, 'session', options);
    if (needsCsrf(ctx) && !csrfMatches(ctx)) {
      throw new AppError(
        'CSRF_TOKEN_MISMATCH',
        'Cookie-authenticated changes need the X-XSRF-TOKEN header with the XSRF-TOKEN cookie value (GET /sanctum/csrf-cookie).',
      );
    }
    return caller;
  },
};

const SCHEME_NAMES: Record<Exclude<AuthScheme, 'none'>, string> = {
  api_key: 'a secret API key in X-API-Key',
  tenant_key: 'a tenant secret key in X-Tenant-Key (or X-API-Key)',
  bearer: 'a user access token in Authorization: Bearer',
  publishable_key: 'a publishable key in X-Publishable-Key',
  cookie: 'a dashboard session cookie',
};

/**
 * The caller of a route: anonymous for public routes, else the first accepted scheme whose
 * credential the request carries. A credential the route does not take is refused, not ignored.
 */
export async function authenticate(ctx: Context, route: RouteSpec, deps: Deps): Promise<Caller> {
  const { requestId } = ctx.state as RequestState;
  if (route.auth.includes('none')) {
    return {
      ...anonymousCaller(ctx.ip, requestId),
      browserSession: csrfMatches(ctx),
      oauthNonce: oauthNonceOf(ctx),
      userAgent: ctx.get('user-agent').slice(0, 500) || null,
    };
  }
  const presented = presentedCredentials(ctx);
  const options: Options = { ip: ctx.ip, now: deps.clock.now(), requiredEnvironment: route.environment };
  const schemes = route.auth as readonly Exclude<AuthScheme, 'none'>[];
  for (const scheme of schemes) {
    const caller = await AUTHENTICATORS[scheme](ctx, presented, deps, options);
    if (caller) return { ...caller, ip: ctx.ip, requestId };
  }
  const accepted = schemes.map((scheme) => SCHEME_NAMES[scheme]).join(', or ');
  if (Object.keys(presented).length > 0) {
    throw new AppError('UNAUTHENTICATED', `This route does not take the credential sent. It needs ${accepted}.`);
  }
  if (schemes.includes('api_key') || schemes.includes('tenant_key')) {
    throw new AppError('API_KEY_MISSING', `No API key was sent. This route needs ${accepted}.`);
  }
  throw new AppError('UNAUTHENTICATED', `No credentials were sent. This route needs ${accepted}.`);
}
