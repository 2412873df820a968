import type { ListWebhookLogsInput } from '../../../schemas/webhook-logs.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { toLogView, type WebhookLogView } from '../attempt-view.js';
import { type AttemptRow, attemptsQuery } from '../delivery-store.js';
import { findEndpoint } from '../endpoint-store.js';

export const listWebhookLogs = defineQuery<ListWebhookLogsInput, Page<WebhookLogView>>({
  name: 'list_webhook_logs',
  summary:
    "List the delivery attempts of one of your webhook endpoints, newest first: event, attempt number, HTTP status, response time, the start of the answer's body, the error and when the next retry is due.",
  input: 'ListWebhookLogsInput',
  output: 'WebhookLogPage',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const endpoint = await findEndpoint(ctx.tx, tenantId, input.id);
    let query = attemptsQuery(ctx.tx, tenantId, endpoint.id);
    if (input.success !== undefined) query = query.where({ success: input.success });
    if (input.delivery_id) query = query.where({ delivery_id: input.delivery_id });
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, (row: AttemptRow) =>
      toLogView(row),
    );
  },
});
