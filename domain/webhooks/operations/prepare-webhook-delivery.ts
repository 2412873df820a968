import type { PreparedWebhookDelivery, PrepareWebhookDeliveryInput } from '../../../schemas/webhook-deliveries.js';
import { defineQuery } from '../../shared/operation.js';
import { prepared } from '../../shared/prepared-statements.js';
import { findDelivery } from '../delivery-store.js';
import { endpointById } from '../endpoint-store.js';
import { envelopeOf, type OutboxEvent } from '../envelope.js';
import { signedRequest } from '../signed-request.js';

/** Schema `PreparedWebhookDelivery`: the type comes from the schema. */
export type { PreparedWebhookDelivery };

const skip = (reason: string): PreparedWebhookDelivery => ({ send: false, reason });

/**
 * First step of a `deliver-webhook` job: whether attempt `attempt` is still to be made, and its
 * signed request. A job run again after its attempt was recorded (a worker that died after
 * recording), or whose delivery ended meanwhile, sends nothing.
 */
export const prepareWebhookDelivery = defineQuery<PrepareWebhookDeliveryInput, PreparedWebhookDelivery>({
  name: 'prepare_webhook_delivery',
  summary: 'Build the signed request of one webhook delivery attempt, unless there is nothing left to send.',
  input: 'PrepareWebhookDeliveryInput',
  output: 'PreparedWebhookDelivery',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const delivery = await findDelivery(ctx.tx, tenantId, input.delivery_id);
    if (!delivery) return skip('no such delivery');
    if (delivery.status !== 'pending') return skip(`delivery ${delivery.status}`);
    if (delivery.attempts !== input.attempt - 1) return skip(`attempt ${input.attempt} is not the next one`);
    const endpoint = await endpointById(ctx.tx, tenantId, delivery.endpoint_id);
    if (!endpoint?.is_active) return skip('endpoint inactive');
    const event = await prepared(
      ctx
        .tx('events')
        .where({ tenant_id: tenantId, id: delivery.event_id })
        .first<OutboxEvent>(['id', 'name', 'environment', 'data', 'created_at']),
      'delivery_event',
    );
    return {
      send: true,
      request: signedRequest(
        ctx.deps.config.appKey!,
        endpoint,
        envelopeOf(event),
        { deliveryId: delivery.id, eventName: delivery.event_name, attempt: input.attempt },
        ctx.clock.now(),
      ),
    };
  },
});
