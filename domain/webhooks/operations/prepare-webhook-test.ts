import { randomUUID } from 'node:crypto';
import type { WebhookEndpointIdInput } from '../../../schemas/webhooks.js';
import { defineQuery } from '../../shared/operation.js';
import { findEndpoint } from '../endpoint-store.js';
import { signedRequest } from '../signed-request.js';
import type { WebhookRequest } from '../webhook-sender.js';

/** Event name of test calls; never emitted by the service otherwise. */
export const TEST_EVENT = 'webhook.test';

/** First step of `test_webhook_endpoint`: the signed test request, built in a read-only transaction. */
export const prepareWebhookTest = defineQuery<WebhookEndpointIdInput, { delivery_id: string; request: WebhookRequest }>(
  {
    name: 'prepare_webhook_test',
    summary: 'Build the signed test request of one of your webhook endpoints (the test call sends it).',
    input: 'WebhookEndpointIdInput',
    output: 'PreparedWebhookTest',
    callers: ['user'],
    async run(input, ctx) {
      const endpoint = await findEndpoint(ctx.tx, ctx.caller.tenantId!, input.id);
      const now = ctx.clock.now();
      const deliveryId = randomUUID();
      const body = JSON.stringify({
        id: randomUUID(),
        event: TEST_EVENT,
        timestamp: now.toISOString(),
        environment: endpoint.environment,
        data: { id: endpoint.id, message: 'A test delivery, sent by POST /v1/webhooks/{id}/test.' },
      });
      const request = signedRequest(
        ctx.deps.config.appKey!,
        endpoint,
        body,
        { deliveryId, eventName: TEST_EVENT, attempt: 1 },
        now,
      );
      return { delivery_id: deliveryId, request };
    },
  },
);
