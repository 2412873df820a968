import type { SubTenant, SubTenantIdInput } from '../../../schemas/sub-tenants.js';
import { defineQuery } from '../../shared/operation.js';
import { ownerOf, toSubTenantView } from '../sub-tenant.js';
import { requireSubTenant } from '../sub-tenant-store.js';

export const getSubTenant = defineQuery<SubTenantIdInput, SubTenant>({
  name: 'get_sub_tenant',
  summary: 'Read one sub-tenant by its id.',
  input: 'SubTenantIdInput',
  output: 'SubTenant',
  callers: ['tenant'],
  async run(input, ctx) {
    return toSubTenantView(await requireSubTenant(ctx.tx, ownerOf(ctx.caller), input.id));
  },
});
