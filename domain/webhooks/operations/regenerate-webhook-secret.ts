import type { WebhookEndpointIdInput } from '../../../schemas/webhooks.js';
import { defineCommand } from '../../shared/operation.js';
import { findEndpoint, updateEndpoint } from '../endpoint-store.js';
import { toEndpointView } from '../webhook-endpoint.js';
import { generateWebhookSecret, sealWebhookSecret } from '../webhook-secret.js';
import type { CreatedWebhookEndpoint } from './create-webhook-endpoint.js';

export const regenerateWebhookSecret = defineCommand<WebhookEndpointIdInput, CreatedWebhookEndpoint>({
  name: 'regenerate_webhook_secret',
  summary:
    'Replace the signing secret of one of your webhook endpoints. The old secret stops at once: every delivery from now on, retries included, is signed with the new one, returned this once.',
  input: 'WebhookEndpointIdInput',
  output: 'CreatedWebhookEndpoint',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const endpoint = await findEndpoint(ctx.tx, tenantId, input.id, { forUpdate: true });
    const secret = generateWebhookSecret();
    const row = await updateEndpoint(ctx.tx, tenantId, endpoint.id, {
      secret_encrypted: sealWebhookSecret(ctx.deps.config.appKey!, endpoint.id, secret),
      secret_last4: secret.slice(-4),
      updated_at: ctx.clock.now(),
    });
    ctx.log.info({ webhook_endpoint_id: endpoint.id }, 'webhook secret regenerated');
    return { ...toEndpointView(row), secret };
  },
});
