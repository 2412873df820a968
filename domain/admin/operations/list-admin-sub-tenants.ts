import type { AdminSubTenantListInput, AdminSubTenantTenant } from '../../../schemas/admin.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { actAcrossTenants } from '../admin-scope.js';
import { listTenantsWithSubTenants } from '../admin-sub-tenant-store.js';

export const listAdminSubTenants = defineQuery<AdminSubTenantListInput, Page<AdminSubTenantTenant>>({
  name: 'list_admin_sub_tenants',
  summary:
    'Admin: the platform tenants, newest first, each with its sub-tenants of both environments; search tenants and sub-tenants, filter sub-tenants by onboarding_status.',
  input: 'AdminSubTenantListInput',
  output: 'AdminSubTenantList',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await actAcrossTenants(ctx.tx);
    return listTenantsWithSubTenants(ctx.tx, input);
  },
});
