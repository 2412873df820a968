import type { AdminSubTenantDetail, AdminSubTenantIdInput } from '../../../schemas/admin.js';
import { countDocuments } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { type SubTenantRow, toSubTenantView } from '../../sub-tenants/index.js';
import { actAcrossTenants } from '../admin-scope.js';
import { findAdminTenant, requireAdminSubTenant, toAdminTenant } from '../admin-sub-tenant-store.js';

export const getAdminSubTenant = defineQuery<AdminSubTenantIdInput, AdminSubTenantDetail>({
  name: 'get_admin_sub_tenant',
  summary:
    'Admin: one sub-tenant, whatever its tenant, with its tenant and its figures (companies, invoices, credit notes).',
  input: 'AdminSubTenantIdInput',
  output: 'AdminSubTenantDetail',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    const row: SubTenantRow = await requireAdminSubTenant(ctx.tx, input.id);
    const [{ n: companies }] = await ctx
      .tx('companies')
      .where({ tenant_id: row.tenant_id, sub_tenant_id: row.id })
      .whereNull('deleted_at')
      .count<{ n: string }[]>({ n: '*' });
    const documents = await countDocuments(ctx.tx, {
      tenantId: row.tenant_id,
      environment: row.environment,
      subTenantId: row.id,
    });
    return {
      sub_tenant: toSubTenantView(row),
      tenant: toAdminTenant(await findAdminTenant(ctx.tx, row.tenant_id)),
      stats: { companies_count: Number(companies), ...documents },
    };
  },
});
