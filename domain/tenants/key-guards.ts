import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller, Environment } from '../shared/caller.js';

/**
 * API keys are managed from the dashboard (bearer token or cookie session), never with an API key:
 * a key restricted to one company or one scope must not be able to mint a wider one.
 */
export function dashboardUserOf(caller: Caller, operation: string): { tenantId: string; userId: string } {
  const type = caller.credential?.type;
  if (!caller.tenantId || !caller.userId || (type !== 'access_token' && type !== 'session')) {
    throw new AppError(
      'FORBIDDEN',
      `${operation} needs a dashboard sign-in (Authorization: Bearer <access token> or the session cookie), not an API key.`,
    );
  }
  return { tenantId: caller.tenantId, userId: caller.userId };
}

/**
 * A tenant acting for itself as a whole: its own secret key or login token. A key bound to one of
 * its sub-tenants may neither change nor read what belongs to the whole tenant (its profile, balance,
 * statistics, webhook URL and secret, publishable keys).
 */
export function tenantWideCaller(caller: Caller, operation: string): { tenantId: string; environment: Environment } {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', `${operation} is not available to this credential.`);
  }
  if (caller.subTenantId) {
    throw new AppError('FORBIDDEN', `${operation} needs the tenant's own key; a sub-tenant's key may not do it.`);
  }
  return { tenantId: caller.tenantId, environment: caller.environment };
}

/** The caller's tenant and environment, whether or not its key is bound to a sub-tenant. */
export function tenantOf(caller: Caller, operation: string): { tenantId: string; environment: Environment } {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', `${operation} is not available to this credential.`);
  }
  return { tenantId: caller.tenantId, environment: caller.environment };
}

/**
 * Production keys reach real invoices and money: only an account whose e-mail is proven may create
 * them, so an account opened under someone else's address cannot.
 */
export async function assertEmailVerified(tx: Knex, tenantId: string, userId: string): Promise<void> {
  const user = await tx('users')
    .where({ tenant_id: tenantId, id: userId })
    .first<{ email_verified_at: Date | null } | undefined>('email_verified_at');
  if (!user?.email_verified_at) {
    throw new AppError(
      'EMAIL_NOT_VERIFIED',
      'Confirm your e-mail address before creating a production key: open the link we mailed you, or ask for a new one with POST /api/v1/auth/verify-email/resend. Sandbox keys work meanwhile.',
    );
  }
}

/**
 * Whose keys the caller manages: its tenant and environment and, for a key bound to one sub-tenant,
 * that same sub-tenant (such a key sees and mints only keys bound like itself).
 */
export function keyOwnerOf(
  caller: Caller,
  operation: string,
): { tenantId: string; environment: Environment; subTenantId: string | null } {
  const { tenantId, environment } = tenantOf(caller, operation);
  return { tenantId, environment, subTenantId: caller.subTenantId ?? null };
}
