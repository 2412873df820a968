import type { EmptyInput } from '../../../schemas/common.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { addDays, lastPeriodEndedBy, periodEndsAt, utcDay } from '../closing-periods.js';
import { NO_SUB_TENANT } from '../fiscal-chain-summary.js';

interface ChainRow {
  tenant_id: string;
  environment: Environment;
  sub_tenant_id: string | null;
}

/** Pending anchors older than this are queued again (a duplicate is refused by the queue's singleton key). */
const STALLED_ANCHOR_MS = 15 * 60 * 1000;
const REQUEUE_LIMIT = 1000;

export const scheduleFiscalClosings = defineCommand<
  EmptyInput,
  { date: string; chains: number; anchors_requeued: number }
>({
  name: 'schedule_fiscal_closings',
  summary:
    'Queue one closing job per fiscal chain that has a closing due (yesterday, last month, last year), and queue again the anchors a down TSA left pending.',
  input: 'EmptyInput',
  output: 'ScheduleFiscalClosingsResult',
  callers: ['system'],
  async run(_input, ctx) {
    const now = ctx.clock.now();
    const yesterday = addDays(utcDay(now), -1);
    const due = (type: 'daily' | 'monthly' | 'yearly') => lastPeriodEndedBy(type, yesterday);
    const missing = (type: string) => `not exists (
        select 1 from fiscal_closings c
        where c.tenant_id = e.tenant_id and c.environment = e.environment
          and coalesce(c.sub_tenant_id, '${NO_SUB_TENANT}'::uuid) = coalesce(e.sub_tenant_id, '${NO_SUB_TENANT}'::uuid)
          and c.type = '${type}' and c.period_start = ?)`;
    // A chain is due for a period once it existed before that period ended (its entry 1 is older).
    const { rows } = await ctx.tx.raw<{ rows: ChainRow[] }>(
      `select e.tenant_id, e.environment, e.sub_tenant_id from fiscal_entries e
         where e.sequence_number = 1 and e.created_at < ? and (
           ${missing('daily')}
           or (e.created_at < ? and ${missing('monthly')})
           or (e.created_at < ? and ${missing('yearly')}))`,
      [
        periodEndsAt(due('daily')),
        due('daily').start,
        periodEndsAt(due('monthly')),
        due('monthly').start,
        periodEndsAt(due('yearly')),
        due('yearly').start,
      ],
    );
    for (const chain of rows) {
      await ctx.jobs.send(
        'close-fiscal-chain',
        {
          tenantId: chain.tenant_id,
          environment: chain.environment,
          subTenantId: chain.sub_tenant_id,
          date: yesterday,
        },
        {
          group: { id: chain.tenant_id },
          singletonKey: `${chain.tenant_id}:${chain.environment}:${chain.sub_tenant_id ?? '-'}`,
        },
      );
    }
    const stalled = await ctx
      .tx('fiscal_anchors')
      .where({ status: 'pending' })
      .andWhere('created_at', '<', new Date(now.getTime() - STALLED_ANCHOR_MS))
      .orderBy('created_at')
      .limit(REQUEUE_LIMIT)
      .select<{ id: string; tenant_id: string }[]>('id', 'tenant_id');
    let requeued = 0;
    for (const anchor of stalled) {
      const id = await ctx.jobs.send(
        'anchor-fiscal-closing',
        { tenantId: anchor.tenant_id, anchorId: anchor.id },
        { group: { id: anchor.tenant_id }, singletonKey: anchor.id },
      );
      if (id) requeued++;
    }
    return { date: yesterday, chains: rows.length, anchors_requeued: requeued };
  },
});
