import type { ProviderEventsInput, ProviderEventsOutcome } from '../../../schemas/transmission-jobs.js';
import { AppError } from '../../shared/app-error.js';
import { cleanText } from '../../shared/clean-text.js';
import { defineCommand } from '../../shared/operation.js';
import { applyProviderEvents } from '../lifecycle-events.js';
import type { ProviderConnectionRow } from '../provider-connection-store.js';

/** Event ids are positive integers (the port's contract); an id that is not one moves the cursor anyway. */
const isAfter = (id: string, cursor: string) =>
  /^\d{1,30}$/.test(id) && /^\d{1,30}$/.test(cursor) ? BigInt(id) > BigInt(cursor) : id !== cursor;

/** Invoice statuses still moving at the provider. */
const ON_THE_WAY = ['submitted', 'transmitted', 'processing'];

/**
 * Stores one page of a connection's event stream and advances its cursor in the same transaction
 * (provider-apis.md §1.7: the cursor moves only once the page is stored). An event that cannot be
 * applied is kept in `provider_event_errors` and does not hold the page back. The row lock keeps two
 * syncs of one connection from interleaving; a page read twice changes nothing the second time.
 */
export const recordProviderEvents = defineCommand<ProviderEventsInput, ProviderEventsOutcome>({
  name: 'record_provider_events',
  summary: "Store a page of a provider connection's lifecycle events and advance its cursor.",
  input: 'ProviderEventsInput',
  output: 'ProviderEventsOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const connection = await ctx
      .tx('provider_connections')
      .where({ id: input.connection_id })
      .forUpdate()
      .first<ProviderConnectionRow | undefined>();
    if (!connection) throw new AppError('NOT_FOUND', 'No such provider connection.', { retryable: false });
    const applied = await applyProviderEvents(ctx, connection, input.events);
    const cursor = cleanText(input.cursor, 200) ?? connection.events_cursor;
    const moves = cursor !== null && (connection.events_cursor === null || isAfter(cursor, connection.events_cursor));
    await ctx
      .tx('provider_connections')
      .where({ id: connection.id })
      .update({ ...(moves ? { events_cursor: cursor } : {}), last_synced_at: ctx.clock.now() });
    const [{ count }] = await ctx
      .tx('invoices')
      .where({ tenant_id: connection.tenant_id, provider_connection_id: connection.id })
      .whereIn('status', ON_THE_WAY)
      .count<{ count: string }[]>('* as count');
    const pending = Number(count);
    if (pending > 0 && connection.provider === 'simulator') {
      // The simulator's next step is due in a few seconds: look again then (one queued per connection).
      await ctx.jobs.send(
        'sync-provider-events',
        { tenantId: connection.tenant_id, connectionId: connection.id },
        { singletonKey: connection.id, startAfter: Math.max(1, ctx.deps.config.simulatorStepSeconds) },
      );
    }
    return { applied, pending };
  },
});
