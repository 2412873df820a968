import type { WebhookEndpointIdInput, WebhookTestResult } from '../../../schemas/webhooks.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { prepareWebhookTest } from './prepare-webhook-test.js';
import { recordWebhookTest } from './record-webhook-test.js';

/** Schema `WebhookTestResult`: the type comes from the schema. */
export type { WebhookTestResult };

/**
 * A real delivery, made while the caller waits: signed like every delivery, through the same sender
 * and SSRF guard, and logged. It runs outside any transaction (the call may take 15 s): it reads
 * and logs through nested operations.
 */
export const testWebhookEndpoint = defineCommand<WebhookEndpointIdInput, WebhookTestResult>({
  name: 'test_webhook_endpoint',
  summary:
    'Send a signed `webhook.test` event to one of your endpoints now and answer what happened: success, HTTP status and response time. The call is logged with the other attempts; it does not retry and does not change the endpoint.',
  input: 'WebhookEndpointIdInput',
  output: 'WebhookTestResult',
  callers: ['user'],
  transactional: false,
  async run(input, ctx) {
    const { delivery_id, request } = await execute(prepareWebhookTest, input, ctx.caller, ctx.deps);
    const attemptedAt = ctx.clock.now();
    const outcome = await ctx.deps.webhookSender.send(request);
    await execute(
      recordWebhookTest,
      { endpoint_id: input.id, url: request.url, attempted_at: attemptedAt.toISOString(), ...outcome },
      ctx.caller,
      ctx.deps,
    );
    return {
      success: outcome.success,
      status_code: outcome.status_code,
      response_time_ms: outcome.response_time_ms,
      error: outcome.error,
      delivery_id,
    };
  },
});
