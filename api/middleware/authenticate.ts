import type { Context } from 'koa';
import { AppError } from '../../domain/shared/app-error.js';
import { anonymousCaller, type Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import type { AuthScheme, RouteSpec } from '../http/route-spec.js';
import type { RequestState } from './request-context.js';

/** Resolves a credential of one scheme; `null` when the request does not carry that credential. */
export type Authenticator = (ctx: Context, deps: Deps) => Promise<Caller | null>;

/** One authenticator per scheme; a route lists the schemes it accepts. */
export const AUTHENTICATORS: Partial<Record<AuthScheme, Authenticator>> = {};

/** The caller of a route: anonymous for public routes, else the first scheme that recognises a credential. */
export async function authenticate(ctx: Context, route: RouteSpec, deps: Deps): Promise<Caller> {
  const { requestId } = ctx.state as RequestState;
  if (route.auth.includes('none')) return anonymousCaller(ctx.ip, requestId);
  for (const scheme of route.auth) {
    const authenticator = AUTHENTICATORS[scheme];
    if (!authenticator) throw new Error(`no authenticator for ${scheme} (route ${route.method} ${route.path})`);
    const caller = await authenticator(ctx, deps);
    if (caller) return { ...caller, ip: ctx.ip, requestId };
  }
  throw new AppError('API_KEY_MISSING', 'Send your API key in the X-API-Key header.');
}
