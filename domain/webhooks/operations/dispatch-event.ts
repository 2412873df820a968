import type { DispatchEventInput, DispatchedEvent } from '../../../schemas/webhook-deliveries.js';
import { AppError } from '../../shared/app-error.js';
import type { Environment } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { insertDeliveries } from '../delivery-store.js';
import { subscribedEndpoints } from '../endpoint-store.js';
import { maxAttemptsFor } from '../retry-schedule.js';

interface EventRow {
  id: string;
  tenant_id: string;
  environment: Environment;
  name: string;
  dispatched_at: Date | null;
}

/**
 * Fans an outbox event out to the webhook endpoints subscribed to it: one delivery per (event,
 * endpoint), whose id is the stable X-Service-Delivery, and its first `deliver-webhook` job, in this
 * transaction. Idempotent: a second dispatch of the same event changes nothing.
 */
export const dispatchEvent = defineCommand<DispatchEventInput, DispatchedEvent>({
  name: 'dispatch_event',
  summary: 'Fan an outbox event out to its subscribed webhook endpoints and mark it dispatched.',
  input: 'DispatchEventInput',
  output: 'DispatchedEvent',
  callers: ['system'],
  async run(input, ctx) {
    const event = await ctx
      .tx('events')
      .where({ id: input.event_id })
      .forUpdate()
      .first<EventRow | undefined>(['id', 'tenant_id', 'environment', 'name', 'dispatched_at']);
    if (!event) {
      throw new AppError('NOT_FOUND', `No event ${input.event_id}.`, { retryable: false });
    }
    if (event.dispatched_at) {
      return { event_id: event.id, dispatched_at: event.dispatched_at.toISOString(), deliveries: 0 };
    }
    const now = ctx.clock.now();
    const schedule = ctx.deps.config.webhookRetrySchedule;
    const endpoints = await subscribedEndpoints(ctx.tx, event.tenant_id, event.environment, event.name);
    const deliveries = await insertDeliveries(
      ctx.tx,
      endpoints.map((endpoint) => ({
        tenant_id: event.tenant_id,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_name: event.name,
        environment: event.environment,
        max_attempts: maxAttemptsFor(endpoint.retry_count, schedule),
        created_at: now,
      })),
    );
    for (const delivery of deliveries) {
      await ctx.jobs.send(
        'deliver-webhook',
        { tenantId: event.tenant_id, deliveryId: delivery.id, attempt: 1 },
        { group: { id: event.tenant_id } },
      );
    }
    await ctx.tx('events').where({ id: event.id }).update({ dispatched_at: now });
    return { event_id: event.id, dispatched_at: now.toISOString(), deliveries: deliveries.length };
  },
});
