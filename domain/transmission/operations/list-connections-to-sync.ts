import type { ConnectionsToSync } from '../../../schemas/transmission-jobs.js';
import { defineQuery } from '../../shared/operation.js';

/** The scheduled sync reads connections that carry invoices still moving (or not synced for an hour). */
export const listConnectionsToSync = defineQuery<Record<string, never>, ConnectionsToSync>({
  name: 'list_connections_to_sync',
  summary: 'List the active provider connections whose lifecycle events are read on schedule.',
  input: 'EmptyInput',
  output: 'ConnectionsToSync',
  callers: ['system'],
  async run(_input, ctx) {
    const rows = await ctx
      .tx('provider_connections as pc')
      .where('pc.status', 'active')
      .andWhere((q) =>
        q
          .whereExists((sub) =>
            sub
              .select(ctx.tx.raw('1'))
              .from('invoices as i')
              .whereRaw('i.provider_connection_id = pc.id')
              .whereIn('i.status', ['submitted', 'transmitted', 'processing', 'completed']),
          )
          .orWhereNull('pc.last_synced_at')
          .orWhere('pc.last_synced_at', '<', new Date(ctx.clock.now().getTime() - 3600_000)),
      )
      .select<{ id: string; tenant_id: string }[]>('pc.id', 'pc.tenant_id');
    return { connections: rows.map((r) => ({ connection_id: r.id, tenant_id: r.tenant_id })) };
  },
});
