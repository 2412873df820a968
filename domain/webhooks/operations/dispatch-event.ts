import type { DispatchEventsInput, DispatchedEvent } from '../../../schemas/webhook-deliveries.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { keepAsked, whereTenantKeys } from '../../shared/tenant-keys.js';
import { insertDeliveries } from '../delivery-store.js';
import { subscribedEndpointsOfTenants } from '../endpoint-store.js';
import { maxAttemptsFor } from '../retry-schedule.js';

interface EventRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  name: string;
  dispatched_at: Date | null;
}

/**
 * Fans outbox events out to the webhook endpoints subscribed to them: one delivery per (event,
 * endpoint), whose id is the stable X-Service-Delivery, and its first `deliver-webhook` job, in this
 * transaction. A batch (the events of one fetch, of any tenants) takes a fixed number of statements:
 * the events locked, their tenants' endpoints read, the deliveries inserted, their jobs sent and the
 * events marked, once each. Idempotent: a second dispatch of an event changes nothing. Runs as the
 * system; each event is matched on the tenant that queued it.
 */
export const dispatchEvents = defineCommand<DispatchEventsInput, { events: DispatchedEvent[] }>({
  name: 'dispatch_events',
  summary: 'Fan outbox events out to their subscribed webhook endpoints and mark them dispatched.',
  input: 'DispatchEventsInput',
  output: 'DispatchedEvents',
  callers: ['system'],
  async run(input, ctx) {
    // Locked in id order: two batches sharing an event (a retried job) wait, never deadlock.
    const rows = keepAsked(
      await whereTenantKeys(ctx.tx('events'), input.events)
        .orderBy('id')
        .forUpdate()
        .select<EventRow[]>(['id', 'tenant_id', 'environment', 'name', 'dispatched_at']),
      input.events,
    );
    const pending = rows.filter((row) => !row.dispatched_at);
    const now = ctx.clock.now();
    const queued = new Map<string, number>();
    if (pending.length > 0) {
      const schedule = ctx.deps.config.webhookRetrySchedule;
      const endpoints = await subscribedEndpointsOfTenants(ctx.tx, [...new Set(pending.map((e) => e.tenant_id))]);
      const deliveries = await insertDeliveries(
        ctx.tx,
        pending.flatMap((event) =>
          endpoints
            .filter((endpoint) => endpoint.takes(event))
            .map((endpoint) => ({
              tenant_id: event.tenant_id,
              endpoint_id: endpoint.id,
              event_id: event.id,
              event_name: event.name,
              environment: event.environment,
              max_attempts: maxAttemptsFor(endpoint.retry_count, schedule),
              created_at: now,
            })),
        ),
      );
      await ctx.jobs.sendMany(
        'deliver-webhook',
        deliveries.map((delivery) => ({
          payload: { tenantId: delivery.tenant_id, deliveryId: delivery.id, attempt: 1 },
          group: { id: delivery.tenant_id },
        })),
      );
      for (const delivery of deliveries) queued.set(delivery.event_id, (queued.get(delivery.event_id) ?? 0) + 1);
      await ctx
        .tx('events')
        .whereIn(
          'id',
          pending.map((e) => e.id),
        )
        .update({ dispatched_at: now });
    }
    const found = new Map(rows.map((row) => [row.id, row]));
    return {
      events: input.events.map(({ id, tenant_id }): DispatchedEvent => {
        const row = found.get(id)?.tenant_id === tenant_id ? found.get(id) : undefined;
        return {
          event_id: id,
          dispatched_at: (row?.dispatched_at ?? (row ? now : null))?.toISOString() ?? null,
          deliveries: row ? (queued.get(id) ?? 0) : 0,
        };
      }),
    };
  },
});
