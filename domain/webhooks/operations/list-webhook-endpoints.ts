import type { ListWebhookEndpointsInput } from '../../../schemas/webhooks.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { listEndpointsQuery } from '../endpoint-store.js';
import { toEndpointView, type WebhookEndpointRow, type WebhookEndpointView } from '../webhook-endpoint.js';

export const listWebhookEndpoints = defineQuery<ListWebhookEndpointsInput, Page<WebhookEndpointView>>({
  name: 'list_webhook_endpoints',
  summary: 'List your webhook endpoints, newest first, optionally of one environment. Secrets are never listed.',
  input: 'ListWebhookEndpointsInput',
  output: 'WebhookEndpointPage',
  callers: ['user'],
  async run(input, ctx) {
    let query = listEndpointsQuery(ctx.tx, ctx.caller.tenantId!);
    if (input.environment) query = query.where({ environment: input.environment });
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, (row: WebhookEndpointRow) =>
      toEndpointView(row),
    );
  },
});
