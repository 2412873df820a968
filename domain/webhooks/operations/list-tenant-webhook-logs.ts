import type { ListTenantWebhookLogsInput } from '../../../schemas/webhook-logs.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { tenantOf } from '../../tenants/index.js';
import { toLogView, type WebhookLogView } from '../attempt-view.js';
import type { AttemptRow } from '../delivery-store.js';

export const listTenantWebhookLogs = defineQuery<ListTenantWebhookLogsInput, Page<WebhookLogView>>({
  name: 'list_tenant_webhook_logs',
  summary:
    "List the delivery attempts to the tenant's webhook_url of the key's environment (every URL it had), newest first: event, attempt number, HTTP status, response time, the start of the answer's body, the error and when the next retry is due. A key bound to a sub-tenant sees only the deliveries of that sub-tenant's events.",
  input: 'ListTenantWebhookLogsInput',
  output: 'WebhookLogPage',
  callers: ['tenant'],
  scope: 'webhooks:read',
  async run(input, ctx) {
    const { tenantId, environment } = tenantOf(ctx.caller, 'list_tenant_webhook_logs');
    const subTenantId = ctx.caller.subTenantId ?? null;
    let query = ctx
      .tx('webhook_attempts as a')
      .join('webhook_endpoints as e', 'e.id', 'a.endpoint_id')
      .where({
        'a.tenant_id': tenantId,
        'e.tenant_id': tenantId,
        'e.kind': 'tenant_profile',
        'e.environment': environment,
      })
      .select('a.*')
      .orderBy([
        { column: 'a.attempted_at', order: 'desc' },
        { column: 'a.id', order: 'desc' },
      ]);
    if (subTenantId) {
      // Events name the sub-tenant they are about in their data; the tenant's own events stay its own.
      query = query
        .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .join('events as ev', 'ev.id', 'd.event_id')
        .where({ 'd.tenant_id': tenantId, 'ev.tenant_id': tenantId })
        .whereRaw("ev.data->>'sub_tenant_id' = ?", [subTenantId]);
    }
    if (input.success !== undefined) query = query.where({ 'a.success': input.success });
    if (input.delivery_id) query = query.where({ 'a.delivery_id': input.delivery_id });
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, (row: AttemptRow) =>
      toLogView(row),
    );
  },
});
