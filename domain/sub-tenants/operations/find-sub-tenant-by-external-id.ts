import type { FindSubTenantByExternalIdInput, SubTenant } from '../../../schemas/sub-tenants.js';
import { defineQuery } from '../../shared/operation.js';
import { ownerOf, subTenantNotFound, toSubTenantView } from '../sub-tenant.js';
import { findByExternalId } from '../sub-tenant-store.js';

export const findSubTenantByExternalId = defineQuery<FindSubTenantByExternalIdInput, SubTenant>({
  name: 'find_sub_tenant_by_external_id',
  summary: 'Find a sub-tenant by the external_id you gave it, in the environment of the key.',
  input: 'FindSubTenantByExternalIdInput',
  output: 'SubTenant',
  callers: ['tenant'],
  async run(input, ctx) {
    const externalId = input.externalId;
    const row = externalId.length <= 255 ? await findByExternalId(ctx.tx, ownerOf(ctx.caller), externalId) : undefined;
    if (!row) throw subTenantNotFound(`with external_id ${externalId}`);
    return toSubTenantView(row);
  },
});
