import type { EmptyInput } from '../../../schemas/common.js';
import type { ProviderSignatureSweep } from '../../../schemas/signature-provider-jobs.js';
import { defineCommand } from '../../shared/operation.js';

/** A request not heard of for this long is read again: a callback may have been lost. */
export const SYNC_AFTER_SECONDS = 15 * 60;
/** Syncs queued per run, the longest silent first. */
const BATCH = 500;

export const queueProviderSignatureSyncs = defineCommand<EmptyInput, ProviderSignatureSweep>({
  name: 'queue_provider_signature_syncs',
  summary:
    'Queue a sync of each pending Openapi request not heard of for 15 minutes (the poll behind the callbacks, which may be lost).',
  input: 'EmptyInput',
  output: 'ProviderSignatureSweep',
  callers: ['system'],
  async run(_input, ctx) {
    const before = new Date(ctx.clock.now().getTime() - SYNC_AFTER_SECONDS * 1000);
    const due = await ctx
      .tx('signature_requests')
      .where({ status: 'pending', provider: 'openapi' })
      .whereNotNull('provider_id')
      .andWhere('provider_synced_at', '<', before)
      .orderBy('provider_synced_at')
      .limit(BATCH)
      .select<{ id: string; tenant_id: string }[]>('id', 'tenant_id');
    for (const r of due) {
      await ctx.jobs.send('sync-signature', { tenantId: r.tenant_id, signatureId: r.id }, { singletonKey: r.id });
    }
    return { queued: due.length };
  },
});
