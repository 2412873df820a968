import type { EmptyInput } from '../../../schemas/common.js';
import type { RecordWebhookTestInput } from '../../../schemas/webhook-deliveries.js';
import { defineCommand } from '../../shared/operation.js';
import { insertAttempt } from '../delivery-store.js';
import { findEndpoint } from '../endpoint-store.js';
import { TEST_EVENT } from './prepare-webhook-test.js';

/** Last step of `test_webhook_endpoint`: the call goes in the endpoint's log; its state is left as is. */
export const recordWebhookTest = defineCommand<RecordWebhookTestInput, EmptyInput>({
  name: 'record_webhook_test',
  summary: "Log a test call in the endpoint's delivery attempts (the endpoint's state does not change).",
  input: 'RecordWebhookTestInput',
  output: 'EmptyInput',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const endpoint = await findEndpoint(ctx.tx, tenantId, input.endpoint_id);
    await insertAttempt(ctx.tx, {
      tenant_id: tenantId,
      endpoint_id: endpoint.id,
      delivery_id: null,
      event_id: null,
      event_name: TEST_EVENT,
      attempt: 1,
      is_test: true,
      url: input.url,
      success: input.success,
      response_status: input.status_code,
      response_time_ms: input.response_time_ms,
      response_body: input.response_body,
      error_message: input.error,
      next_attempt_at: null,
      attempted_at: new Date(input.attempted_at),
    });
    return {};
  },
});
