import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { listConnectionsToSync, queueProviderSyncs } from '../../domain/transmission/operations/index.js';
import type { JobHandler } from '../job-handler.js';

/** Cron: one `sync-provider-events` job per connection worth reading (the provider has no webhooks). */
export const syncAllProviderEvents: JobHandler<'sync-all-provider-events'> = async (_payload, deps) => {
  const { connections } = await execute(listConnectionsToSync, {}, systemCaller(), deps);
  if (connections.length) await execute(queueProviderSyncs, { connections }, systemCaller(), deps);
  return { queued: connections.length };
};
