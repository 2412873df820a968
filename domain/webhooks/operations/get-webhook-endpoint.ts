import type { WebhookEndpointIdInput } from '../../../schemas/webhooks.js';
import { defineQuery } from '../../shared/operation.js';
import { findEndpoint } from '../endpoint-store.js';
import { toEndpointView, type WebhookEndpointView } from '../webhook-endpoint.js';

export const getWebhookEndpoint = defineQuery<WebhookEndpointIdInput, WebhookEndpointView>({
  name: 'get_webhook_endpoint',
  summary: 'Read one of your webhook endpoints: its URL, events, state and the last 4 characters of its secret.',
  input: 'WebhookEndpointIdInput',
  output: 'WebhookEndpoint',
  callers: ['user'],
  async run(input, ctx) {
    return toEndpointView(await findEndpoint(ctx.tx, ctx.caller.tenantId!, input.id));
  },
});
