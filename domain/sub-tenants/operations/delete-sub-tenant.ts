import type { SubTenantDeleted, SubTenantIdInput } from '../../../schemas/sub-tenants.js';
import { countSubTenantEntries } from '../../ledger/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { assertTenantWide, ownerOf } from '../sub-tenant.js';
import { requireSubTenant } from '../sub-tenant-store.js';

const isForeignKeyViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23503';

export const deleteSubTenant = defineCommand<SubTenantIdInput, SubTenantDeleted>({
  name: 'delete_sub_tenant',
  summary:
    'Delete a sub-tenant and revoke its API keys. Refused with 422 SUB_TENANT_HAS_FISCAL_ENTRIES once it has fiscal entries (fiscal retention) and SUB_TENANT_HAS_COMPANIES while it has companies.',
  input: 'SubTenantIdInput',
  output: 'SubTenantDeleted',
  callers: ['tenant'],
  scope: 'sub_tenants:write',
  async run(input, ctx) {
    const owner = ownerOf(ctx.caller);
    assertTenantWide(owner, 'delete sub-tenants');
    // The row lock makes a concurrent company or key creation for this sub-tenant wait, then fail its foreign key.
    const subTenant = await requireSubTenant(ctx.tx, owner, input.id, { forUpdate: true });
    const { id } = subTenant;

    // Fiscal retention first: entries can never go, whereas companies can be deleted.
    const entries = await countSubTenantEntries(ctx.tx, owner.tenantId, id);
    if (entries > 0) {
      throw new AppError(
        'SUB_TENANT_HAS_FISCAL_ENTRIES',
        `Sub-tenant ${id} has ${entries} fiscal ledger entr${entries === 1 ? 'y' : 'ies'}, which must be kept: it cannot be deleted.`,
        { body: { fiscal_entries_count: entries } },
      );
    }
    const [{ n: companies }] = await ctx
      .tx('companies')
      .where({ tenant_id: owner.tenantId, sub_tenant_id: id })
      .whereNull('deleted_at')
      .count<{ n: number }[]>({ n: '*' });
    if (Number(companies) > 0) {
      throw new AppError(
        'SUB_TENANT_HAS_COMPANIES',
        `Sub-tenant ${id} still has ${companies} compan${Number(companies) === 1 ? 'y' : 'ies'}; delete them first.`,
        { body: { companies_count: Number(companies) } },
      );
    }

    const now = ctx.clock.now();
    const keys = () => ctx.tx('api_keys').where({ tenant_id: owner.tenantId, sub_tenant_id: id });
    const revoked = await keys()
      .where({ status: 'active' })
      .update({ status: 'revoked', revoked_at: now, revoked_reason: 'sub-tenant deleted' });
    // Detached keys stay revoked: a key without a sub-tenant would otherwise act for the whole tenant.
    await keys().update({ sub_tenant_id: null });
    await ctx
      .tx('companies')
      .where({ tenant_id: owner.tenantId, sub_tenant_id: id })
      .whereNotNull('deleted_at')
      .update({ sub_tenant_id: null });
    await ctx
      .tx('sub_tenants')
      .where({ tenant_id: owner.tenantId, environment: owner.environment, id })
      .delete()
      .catch((err: unknown) => {
        if (!isForeignKeyViolation(err)) throw err;
        throw new AppError('CONFLICT', `Sub-tenant ${id} is still referenced by other records; it cannot be deleted.`);
      });
    return {
      message: `Sub-tenant deleted${revoked ? `; ${revoked} API key${revoked === 1 ? '' : 's'} revoked` : ''}.`,
    };
  },
});
