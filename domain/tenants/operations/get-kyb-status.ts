import type { EmptyInput } from '../../../schemas/common.js';
import type { KybStatus } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import type { TenantKybRow } from '../kyb-state.js';
import { kybStatusView, listKybDocumentRows } from '../kyb-store.js';

export const getKybStatus = defineQuery<EmptyInput, KybStatus>({
  name: 'get_kyb_status',
  summary:
    'Where your KYB stands: status (pending, documents_submitted, under_review, verified, rejected), verified_at, documents_count, rejection_reason, and the required documents still missing. Production keys work once it is verified.',
  input: 'EmptyInput',
  output: 'KybStatus',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'get_kyb_status');
    const tenant = await ctx
      .tx('tenants')
      .where({ id: tenantId })
      .first<TenantKybRow | undefined>(['id', 'name', 'kyb_status', 'kyb_verified_at', 'kyb_rejection_reason']);
    if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
    return kybStatusView(tenant, await listKybDocumentRows(ctx.tx, [tenantId]));
  },
});
