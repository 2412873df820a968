import type { ListSubTenantsInput, SubTenant } from '../../../schemas/sub-tenants.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { ownerOf, type SubTenantRow, toSubTenantView } from '../sub-tenant.js';
import { listQuery } from '../sub-tenant-store.js';

export const listSubTenants = defineQuery<ListSubTenantsInput, Page<SubTenant>>({
  name: 'list_sub_tenants',
  summary:
    "List the tenant's sub-tenants in the key's environment, newest first; filter by status or onboarding_status, search name, email and external_id with q.",
  input: 'ListSubTenantsInput',
  output: 'SubTenantList',
  callers: ['tenant'],
  async run(input, ctx) {
    const owner = ownerOf(ctx.caller);
    return paginate<SubTenantRow, SubTenant>(listQuery(ctx.tx, owner, input), input, toSubTenantView);
  },
});
