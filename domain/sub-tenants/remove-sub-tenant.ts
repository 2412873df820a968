import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { SubTenantRow } from './sub-tenant.js';

const isForeignKeyViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23503';

export interface SubTenantRemoval {
  /** Companies soft-deleted with the sub-tenant (`cascade` only). */
  companiesDeleted: number;
  /** Active API keys revoked: the sub-tenant's and, with `cascade`, its companies'. */
  keysRevoked: number;
}

/**
 * Deletes a sub-tenant the caller has locked (`requireSubTenant(..., {forUpdate: true})`, so a
 * concurrent company or key creation waits, then fails its foreign key). Refused with 422
 * SUB_TENANT_HAS_FISCAL_ENTRIES once it has fiscal entries (they are kept for the retention period,
 * whatever `cascade` says; the caller counts them with the ledger's `countSubTenantEntries`, which
 * this context's index cannot import without a cycle) and SUB_TENANT_HAS_COMPANIES while it has
 * live companies, unless `cascade` soft-deletes them first, revoking their keys. Used by the
 * tenant's route and the admin's.
 */
export async function removeSubTenant(
  tx: Knex,
  subTenant: Pick<SubTenantRow, 'id' | 'tenant_id' | 'environment'>,
  now: Date,
  options: { cascade: boolean; fiscalEntries: number },
): Promise<SubTenantRemoval> {
  const { id, tenant_id: tenantId } = subTenant;
  // Fiscal retention first: entries can never go, whereas companies can be deleted.
  const entries = options.fiscalEntries;
  if (entries > 0) {
    throw new AppError(
      'SUB_TENANT_HAS_FISCAL_ENTRIES',
      `Sub-tenant ${id} has ${entries} fiscal ledger entr${entries === 1 ? 'y' : 'ies'}, which must be kept: it cannot be deleted.`,
      { body: { fiscal_entries_count: entries } },
    );
  }
  const liveCompanies = () => tx('companies').where({ tenant_id: tenantId, sub_tenant_id: id }).whereNull('deleted_at');
  const companyIds = (await liveCompanies().select('id')).map((row: { id: string }) => row.id);
  if (companyIds.length > 0 && !options.cascade) {
    throw new AppError(
      'SUB_TENANT_HAS_COMPANIES',
      `Sub-tenant ${id} still has ${companyIds.length} compan${companyIds.length === 1 ? 'y' : 'ies'}; delete them first.`,
      { body: { companies_count: companyIds.length } },
    );
  }

  let keysRevoked = 0;
  if (companyIds.length > 0) {
    keysRevoked += await tx('api_keys')
      .where({ tenant_id: tenantId, status: 'active' })
      .whereIn('company_id', companyIds)
      .update({ status: 'revoked', revoked_at: now, revoked_reason: 'company deleted' });
    await liveCompanies().update({ deleted_at: now, updated_at: now });
  }
  const keys = () => tx('api_keys').where({ tenant_id: tenantId, sub_tenant_id: id });
  keysRevoked += await keys()
    .where({ status: 'active' })
    .update({ status: 'revoked', revoked_at: now, revoked_reason: 'sub-tenant deleted' });
  // Detached keys stay revoked: a key without a sub-tenant would otherwise act for the whole tenant.
  await keys().update({ sub_tenant_id: null });
  await tx('companies')
    .where({ tenant_id: tenantId, sub_tenant_id: id })
    .whereNotNull('deleted_at')
    .update({ sub_tenant_id: null });
  await tx('sub_tenants')
    .where({ tenant_id: tenantId, environment: subTenant.environment, id })
    .delete()
    .catch((err: unknown) => {
      if (!isForeignKeyViolation(err)) throw err;
      throw new AppError('CONFLICT', `Sub-tenant ${id} is still referenced by other records; it cannot be deleted.`);
    });
  return { companiesDeleted: companyIds.length, keysRevoked };
}
