import type { UpdateWebhookEndpointInput } from '../../../schemas/webhooks.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { cancelPendingDeliveries } from '../delivery-store.js';
import { assertEndpointUrl, headerColumns } from '../endpoint-fields.js';
import { findEndpoint, updateEndpoint } from '../endpoint-store.js';
import { toEndpointView, type WebhookEndpointRow, type WebhookEndpointView } from '../webhook-endpoint.js';

export const updateWebhookEndpoint = defineCommand<UpdateWebhookEndpointInput, WebhookEndpointView>({
  name: 'update_webhook_endpoint',
  summary:
    'Change some fields of one of your webhook endpoints; the others keep their value. is_active=false pauses it (pending retries stop); is_active=true resumes it, also after the service disabled it.',
  input: 'UpdateWebhookEndpointInput',
  output: 'WebhookEndpoint',
  callers: ['user'],
  async run({ id, ...input }, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const current = await findEndpoint(ctx.tx, tenantId, id, { forUpdate: true });
    if (Object.keys(input).length === 0) throw AppError.validation({ body: ['give at least one field to change'] });
    const now = ctx.clock.now();
    const changes: Partial<WebhookEndpointRow> = { updated_at: now };
    if (input.url !== undefined && input.url !== current.url) {
      await assertEndpointUrl(input.url, ctx.deps.config.allowPrivateUrls);
      changes.url = input.url;
    }
    if (input.events !== undefined) changes.events = input.events;
    if (input.environment !== undefined) changes.environment = input.environment;
    if (input.description !== undefined) changes.description = input.description;
    if (input.headers !== undefined) Object.assign(changes, headerColumns(ctx.deps.config.appKey!, id, input.headers));
    if (input.timeout_seconds !== undefined) changes.timeout_seconds = input.timeout_seconds;
    if (input.retry_count !== undefined) changes.retry_count = input.retry_count;
    if (input.is_active === true && !current.is_active) {
      Object.assign(changes, {
        is_active: true,
        disabled_at: null,
        disabled_reason: null,
        failure_count: 0,
        failing_since: null,
      });
    } else if (input.is_active === false && current.is_active) {
      changes.is_active = false;
      await cancelPendingDeliveries(ctx.tx, tenantId, id, now);
    }
    const row = await updateEndpoint(ctx.tx, tenantId, id, changes);
    ctx.log.info({ webhook_endpoint_id: id, fields: Object.keys(input) }, 'webhook endpoint updated');
    return toEndpointView(row);
  },
});
