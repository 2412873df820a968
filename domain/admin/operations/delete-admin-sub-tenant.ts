import type { AdminDeleteSubTenantInput, AdminSubTenantDeleted } from '../../../schemas/admin.js';
import { countSubTenantEntries } from '../../ledger/index.js';
import { defineCommand } from '../../shared/operation.js';
import { removeSubTenant } from '../../sub-tenants/index.js';
import { recordAdminAction } from '../admin-audit-store.js';
import { actAcrossTenants } from '../admin-scope.js';
import { requireAdminSubTenant } from '../admin-sub-tenant-store.js';

export const deleteAdminSubTenant = defineCommand<AdminDeleteSubTenantInput, AdminSubTenantDeleted>({
  name: 'delete_admin_sub_tenant',
  summary:
    "Admin: delete any tenant's sub-tenant and revoke its keys; with cascade=true its companies go with it (their keys revoked). Refused with 422 SUB_TENANT_HAS_FISCAL_ENTRIES once it has fiscal entries, cascade or not, and SUB_TENANT_HAS_COMPANIES while it has companies without cascade.",
  input: 'AdminDeleteSubTenantInput',
  output: 'AdminSubTenantDeleted',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const subTenant = await requireAdminSubTenant(ctx.tx, input.id, { forUpdate: true });
    const cascade = input.cascade ?? false;
    const fiscalEntries = await countSubTenantEntries(ctx.tx, subTenant.tenant_id, subTenant.id);
    const removed = await removeSubTenant(ctx.tx, subTenant, ctx.clock.now(), { cascade, fiscalEntries });
    await recordAdminAction(ctx.tx, ctx.caller, {
      action: 'sub_tenant.deleted',
      targetType: 'sub_tenant',
      targetId: subTenant.id,
      targetTenantId: subTenant.tenant_id,
      details: {
        name: subTenant.name,
        external_id: subTenant.external_id,
        environment: subTenant.environment,
        cascade,
        companies_deleted: removed.companiesDeleted,
        keys_revoked: removed.keysRevoked,
      },
    });
    const companies = removed.companiesDeleted;
    return {
      message: `Sub-tenant deleted${companies ? ` with ${companies} compan${companies === 1 ? 'y' : 'ies'}` : ''}${removed.keysRevoked ? `; ${removed.keysRevoked} API key${removed.keysRevoked === 1 ? '' : 's'} revoked` : ''}.`,
      companies_deleted: companies,
    };
  },
});
