import type { DispatchEventInput, DispatchedEvent } from '../../../schemas/webhooks.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';

/**
 * Fans an outbox event out to the webhook endpoints subscribed to it, then marks it dispatched.
 * Idempotent: a second dispatch of the same event changes nothing. (Endpoints and deliveries come
 * with the webhooks context; until then an event has no subscribers.)
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
      .first<{ id: string; dispatched_at: Date | null }>(['id', 'dispatched_at']);
    if (!event) {
      throw new AppError('NOT_FOUND', `No event ${input.event_id}.`, { retryable: false });
    }
    if (event.dispatched_at) {
      return { event_id: event.id, dispatched_at: event.dispatched_at.toISOString(), deliveries: 0 };
    }
    const now = ctx.clock.now();
    await ctx.tx('events').where({ id: event.id }).update({ dispatched_at: now });
    return { event_id: event.id, dispatched_at: now.toISOString(), deliveries: 0 };
  },
});
