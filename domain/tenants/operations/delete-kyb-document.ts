import type { DeletedKybDocument, KybDocumentIdInput } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { lockTenantKyb, moveKyb, statusAfterDelete } from '../kyb-state.js';
import { findKybDocument } from '../kyb-store.js';

export const deleteKybDocument = defineCommand<KybDocumentIdInput, DeletedKybDocument>({
  name: 'delete_kyb_document',
  summary:
    'Delete one of your KYB documents, before verification only (409 once verified). Deleting the last document of a KYB waiting for review takes it back to pending.',
  input: 'KybDocumentIdInput',
  output: 'DeletedKybDocument',
  callers: ['tenant'],
  scope: 'profile:write',
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'delete_kyb_document');
    const tenant = await lockTenantKyb(ctx.tx, tenantId);
    const document = await findKybDocument(ctx.tx, tenantId, input.document, { lock: true });
    if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
    if (tenant.kyb_status === 'verified') {
      throw new AppError('INVALID_STATE', 'Your KYB is verified: its documents are kept and cannot be deleted.');
    }
    await ctx.tx('kyb_documents').where({ id: document.id, tenant_id: tenantId }).delete();
    const [{ n }] = await ctx.tx('kyb_documents').where({ tenant_id: tenantId }).count<{ n: string }[]>({ n: '*' });
    const next = statusAfterDelete(tenant.kyb_status, Number(n));
    await moveKyb(ctx, tenant, next === tenant.kyb_status ? [] : [next]);
    return { message: 'KYB document deleted.', id: document.id };
  },
});
