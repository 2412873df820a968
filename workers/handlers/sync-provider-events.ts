import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { cleanProviderEvent, type ProviderAccountRef } from '../../domain/transmission/index.js';
import { getProviderSyncCursor, recordProviderEvents } from '../../domain/transmission/operations/index.js';
import type { JobHandler } from '../job-handler.js';

const PAGE = 100;
/** Pages read per job; a longer backlog continues in the next job. */
const MAX_PAGES = 50;

/**
 * Reads a connection's lifecycle events from its cursor, page by page while `has_after`
 * (provider-apis.md §1.7), each page stored and the cursor advanced in one transaction.
 */
export const syncProviderEvents: JobHandler<'sync-provider-events'> = async ({ tenantId, connectionId }, deps) => {
  const caller = systemCaller(tenantId);
  let applied = 0;
  let pending = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const state = await execute(getProviderSyncCursor, { connection_id: connectionId }, caller, deps);
    const events = await deps.einvoicingProvider.listEvents(state.account as ProviderAccountRef, state.cursor, PAGE);
    // Cleaned before the input schema sees them: a NUL in one event's text must not refuse the page.
    const items = events.items.map(cleanProviderEvent);
    const cursor = items.length ? items[items.length - 1].id || state.cursor : state.cursor;
    const outcome = await execute(
      recordProviderEvents,
      { connection_id: connectionId, events: items, cursor },
      caller,
      deps,
    );
    applied += outcome.applied;
    pending = outcome.pending;
    if (!events.hasAfter) break;
  }
  return { applied, pending };
};
