import type { CreateSubTenantInput, SubTenant } from '../../../schemas/sub-tenants.js';
import { defineCommand } from '../../shared/operation.js';
import { assertTenantWide, checkIdentifiers, ownerOf, toSubTenantView } from '../sub-tenant.js';
import { assertExternalIdFree, guardExternalId, insertSubTenant } from '../sub-tenant-store.js';

export const createSubTenant = defineCommand<CreateSubTenantInput, SubTenant>({
  name: 'create_sub_tenant',
  summary:
    "Create a sub-tenant (client, subsidiary or department) in the key's environment. external_id is your identifier: reusing one gives 409 DUPLICATE_EXTERNAL_ID with existing_id.",
  input: 'CreateSubTenantInput',
  output: 'SubTenant',
  callers: ['tenant'],
  scope: 'sub_tenants:write',
  async run(input, ctx) {
    const owner = ownerOf(ctx.caller);
    assertTenantWide(owner, 'create sub-tenants');
    checkIdentifiers(input);
    await assertExternalIdFree(ctx.tx, owner, input.external_id);
    const row = await guardExternalId(ctx.tx, owner, input.external_id, (sp) =>
      insertSubTenant(
        sp,
        owner,
        {
          external_id: input.external_id,
          name: input.name,
          email: input.email ?? null,
          siret: input.siret ?? null,
          vat_number: input.vat_number ?? null,
          address: input.address ?? {},
          metadata: input.metadata ?? {},
        },
        ctx.clock.now(),
      ),
    );
    return toSubTenantView(row);
  },
});
