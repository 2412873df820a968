import type { SubTenant, UpdateSubTenantInput } from '../../../schemas/sub-tenants.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { checkIdentifiers, ownerOf, toSubTenantView } from '../sub-tenant.js';
import {
  assertExternalIdFree,
  guardExternalId,
  requireSubTenant,
  type SubTenantFields,
  updateSubTenant as writeSubTenant,
} from '../sub-tenant-store.js';

export const updateSubTenant = defineCommand<UpdateSubTenantInput, SubTenant>({
  name: 'update_sub_tenant',
  summary:
    'Change fields of a sub-tenant; fields left out keep their value, null clears an optional one. address and metadata are replaced as a whole.',
  input: 'UpdateSubTenantInput',
  output: 'SubTenant',
  callers: ['tenant'],
  scope: 'sub_tenants:write',
  async run(input, ctx) {
    const owner = ownerOf(ctx.caller);
    const { id, address, ...rest } = input;
    const current = await requireSubTenant(ctx.tx, owner, id, { forUpdate: true });
    const fields: SubTenantFields = { ...rest };
    if (address !== undefined) fields.address = address ?? {};
    if (Object.keys(fields).length === 0) {
      throw AppError.validation({ body: ['give at least one field to change'] });
    }
    checkIdentifiers(fields);
    const externalId = fields.external_id !== current.external_id ? fields.external_id : undefined;
    if (externalId !== undefined) await assertExternalIdFree(ctx.tx, owner, externalId, id);
    const row = await guardExternalId(ctx.tx, owner, externalId, (sp) =>
      writeSubTenant(sp, owner, id, fields, ctx.clock.now()),
    );
    return toSubTenantView(row);
  },
});
