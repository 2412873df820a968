import type { AuthSession } from '../../schemas/auth.js';
import { issueAccessToken } from '../auth/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { enterTenant } from '../shared/tenant-context.js';
import { readUser } from './user-view.js';

/** What `auth_find_user_by_email` returns (migrations/20261122001200_isolate_tenants.ts). */
export interface UserLookup {
  id: string;
  tenant_id: string;
  password_hash: string | null;
  is_active: boolean;
  google_id: string | null;
}

/** The one cross-tenant read by e-mail; the caller then enters the user's tenant before writing. */
export async function findUserByEmail(ctx: OperationContext, email: string): Promise<UserLookup | undefined> {
  const { rows } = await ctx.tx.raw<{ rows: UserLookup[] }>('select * from auth_find_user_by_email(?)', [email.trim()]);
  return rows[0];
}

/**
 * Ends every successful sign-in (register, password, Google): records the time and issues the
 * credential. The dashboard's browser flow (CSRF cookie and header matched: `caller.browserSession`)
 * gets a cookie session, which the route's respond hook puts in the HttpOnly cookie; everyone else
 * gets a bearer token in the body.
 */
export async function completeSignIn(
  ctx: OperationContext,
  user: { id: string; tenant_id: string },
  message: string,
): Promise<AuthSession> {
  const now = ctx.clock.now();
  await enterTenant(ctx.tx, user.tenant_id);
  await ctx.tx('users').where({ tenant_id: user.tenant_id, id: user.id }).update({ last_login_at: now });
  const kind = ctx.caller.browserSession ? 'session' : 'bearer';
  const issued = await issueAccessToken(ctx.tx, {
    tenantId: user.tenant_id,
    userId: user.id,
    kind,
    ip: ctx.caller.ip,
    now,
  });
  const view = await readUser(ctx.tx, user.tenant_id, user.id);
  if (!view) throw new AppError('INTERNAL_ERROR', 'The signed-in user vanished.');
  return { message, user: view, token: issued.token, token_type: kind, expires_at: issued.expiresAt.toISOString() };
}
