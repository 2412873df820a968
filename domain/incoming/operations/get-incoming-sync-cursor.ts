import type { IncomingSyncCursor, SyncIncomingInvoicesInput } from '../../../schemas/incoming-invoices.js';
import { defineQuery } from '../../shared/operation.js';

export const getIncomingSyncCursor = defineQuery<SyncIncomingInvoicesInput, IncomingSyncCursor>({
  name: 'get_incoming_sync_cursor',
  summary: "Where a provider account's inbox sync stands: the last provider invoice id stored.",
  input: 'SyncIncomingInvoicesInput',
  output: 'IncomingSyncCursor',
  callers: ['system'],
  async run(input, ctx) {
    const row = await ctx
      .tx('incoming_sync_cursors')
      .where({ account_id: input.account_id, tenant_id: input.tenant_id })
      .first<{ after_id: string | null } | undefined>('after_id');
    return { after_id: row?.after_id ?? null };
  },
});
