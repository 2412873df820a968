import type { ScheduleIncomingSyncsInput, SyncIncomingInvoicesInput } from '../../../schemas/incoming-invoices.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import type { JobSender } from '../../shared/tx-jobs.js';

/**
 * Queues an inbox sync for one account; at most one is queued or running per account (the queue
 * is `exclusive`, keyed by the account id). The daily schedule and the provider's webhook both
 * come through here.
 */
export function queueIncomingSync(jobs: JobSender, account: SyncIncomingInvoicesInput): Promise<string | null> {
  return jobs.send(
    'sync-incoming-invoices',
    {
      accountId: account.account_id,
      tenantId: account.tenant_id,
      environment: account.environment,
      subTenantId: account.sub_tenant_id ?? null,
    },
    { singletonKey: account.account_id, group: { id: account.tenant_id } },
  );
}

export const scheduleIncomingSyncs = defineCommand<ScheduleIncomingSyncsInput, { queued: number }>({
  name: 'schedule_incoming_syncs',
  summary:
    'Queue one inbox sync per provider account: those given, or else every active provider connection and every account synchronised before (the daily schedule).',
  input: 'ScheduleIncomingSyncsInput',
  output: 'ScheduledIncomingSyncs',
  callers: ['system'],
  async run(input, ctx) {
    const accounts: SyncIncomingInvoicesInput[] =
      input.accounts ??
      (await ctx.tx
        .select<{ account_id: string; tenant_id: string; environment: Environment; sub_tenant_id: string | null }[]>(
          'account_id',
          'tenant_id',
          'environment',
          'sub_tenant_id',
        )
        .from('incoming_sync_cursors')
        .union((u) =>
          u
            .select(ctx.tx.raw('id::text'), 'tenant_id', 'environment', 'sub_tenant_id')
            .from('provider_connections')
            .where({ status: 'active' }),
        ));
    let queued = 0;
    for (const account of accounts) if (await queueIncomingSync(ctx.jobs, account)) queued++;
    return { queued };
  },
});
