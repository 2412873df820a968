import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import { requireSubTenant } from '../sub-tenants/index.js';
import type { IntegrityScope } from './integrity-check.js';

/**
 * The chains a fiscal request reaches: the caller's tenant in its key's environment; the
 * sub-tenant its key is bound to, or the one it names (404 when not its own).
 */
export async function fiscalScopeOf(
  tx: Knex,
  caller: Caller,
  subTenantId: string | undefined,
  period: IntegrityScope['period'] = null,
): Promise<IntegrityScope> {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', 'Fiscal records are read with a tenant secret key (sk_test_ or sk_live_).');
  }
  const owner = { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
  const wanted = subTenantId ?? owner.subTenantId;
  const sub = wanted ? (await requireSubTenant(tx, owner, wanted)).id : null;
  return { tenantId: owner.tenantId, environment: owner.environment, subTenantId: sub, period };
}

/**
 * `fiscalScopeOf` for a request that may name an `environment`: a key reads its own environment
 * only, so another one is a 422 at that field.
 */
export async function fiscalScopeIn(
  tx: Knex,
  caller: Caller,
  input: { sub_tenant_id?: string; environment?: string },
): Promise<IntegrityScope> {
  const scope = await fiscalScopeOf(tx, caller, input.sub_tenant_id);
  if (input.environment && input.environment !== scope.environment) {
    throw AppError.validation({ environment: [`must be ${scope.environment}: a key reads its own environment only`] });
  }
  return scope;
}
