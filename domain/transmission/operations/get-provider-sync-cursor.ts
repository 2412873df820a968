import type { ConnectionIdInput, SyncCursor } from '../../../schemas/transmission-jobs.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { accountOf, type ProviderConnectionRow } from '../provider-connection-store.js';

export const getProviderSyncCursor = defineQuery<ConnectionIdInput, SyncCursor>({
  name: 'get_provider_sync_cursor',
  summary: "Read where a provider connection's event stream was last read.",
  input: 'ConnectionIdInput',
  output: 'SyncCursor',
  callers: ['system'],
  async run(input, ctx) {
    const row = await ctx
      .tx('provider_connections')
      .where({ id: input.connection_id })
      .first<ProviderConnectionRow | undefined>();
    if (!row) throw new AppError('NOT_FOUND', 'No such provider connection.', { retryable: false });
    return { account: accountOf(row), cursor: row.events_cursor };
  },
});
