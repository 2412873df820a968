import type { SubTenantDeleted, SubTenantIdInput } from '../../../schemas/sub-tenants.js';
import { countSubTenantEntries } from '../../ledger/index.js';
import { defineCommand } from '../../shared/operation.js';
import { removeSubTenant } from '../remove-sub-tenant.js';
import { assertTenantWide, ownerOf } from '../sub-tenant.js';
import { requireSubTenant } from '../sub-tenant-store.js';

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
    const fiscalEntries = await countSubTenantEntries(ctx.tx, owner.tenantId, subTenant.id);
    const { keysRevoked: revoked } = await removeSubTenant(ctx.tx, subTenant, ctx.clock.now(), {
      cascade: false,
      fiscalEntries,
    });
    return {
      message: `Sub-tenant deleted${revoked ? `; ${revoked} API key${revoked === 1 ? '' : 's'} revoked` : ''}.`,
    };
  },
});
