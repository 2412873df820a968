import type { ConnectionsToSync } from '../../../schemas/transmission-jobs.js';
import { defineCommand } from '../../shared/operation.js';

export const queueProviderSyncs = defineCommand<ConnectionsToSync, ConnectionsToSync>({
  name: 'queue_provider_syncs',
  summary: 'Queue one event sync per provider connection (one queued per connection at most).',
  input: 'ConnectionsToSync',
  output: 'ConnectionsToSync',
  callers: ['system'],
  async run(input, ctx) {
    for (const c of input.connections) {
      await ctx.jobs.send(
        'sync-provider-events',
        { tenantId: c.tenant_id, connectionId: c.connection_id },
        { singletonKey: c.connection_id },
      );
    }
    return input;
  },
});
