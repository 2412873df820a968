import type { WebhookEndpointIdInput } from '../../../schemas/webhooks.js';
import { defineCommand } from '../../shared/operation.js';
import { cancelPendingDeliveries } from '../delivery-store.js';
import { findEndpoint, updateEndpoint } from '../endpoint-store.js';

export const deleteWebhookEndpoint = defineCommand<WebhookEndpointIdInput, { message: string; id: string }>({
  name: 'delete_webhook_endpoint',
  summary:
    'Delete one of your webhook endpoints: nothing more is delivered to it, pending retries included. Its secret stops working.',
  input: 'WebhookEndpointIdInput',
  output: 'WebhookEndpointDeleted',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const now = ctx.clock.now();
    const endpoint = await findEndpoint(ctx.tx, tenantId, input.id, { forUpdate: true });
    await updateEndpoint(ctx.tx, tenantId, endpoint.id, { is_active: false, deleted_at: now, updated_at: now });
    const cancelled = await cancelPendingDeliveries(ctx.tx, tenantId, endpoint.id, now);
    ctx.log.info({ webhook_endpoint_id: endpoint.id, cancelled_deliveries: cancelled }, 'webhook endpoint deleted');
    return { message: 'Webhook endpoint deleted.', id: endpoint.id };
  },
});
