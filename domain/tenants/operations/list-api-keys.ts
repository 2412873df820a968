import type { ListApiKeysInput } from '../../../schemas/api-keys.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { userKeysQuery, whereStatus } from '../api-key-queries.js';
import { type ApiKeyRow, type ApiKeyView, toApiKeyView } from '../api-key-view.js';
import { dashboardUserOf } from '../key-guards.js';

export const listApiKeys = defineQuery<ListApiKeysInput, Page<ApiKeyView>>({
  name: 'list_api_keys',
  summary: 'List your API keys, newest first, filtered by company, environment or status (active, revoked, expired).',
  input: 'ListApiKeysInput',
  output: 'ApiKeyPage',
  callers: ['user'],
  async run(input, ctx) {
    const { tenantId, userId } = dashboardUserOf(ctx.caller, 'list_api_keys');
    const now = ctx.clock.now();
    let query = userKeysQuery(ctx.tx, tenantId, userId);
    if (input.company_id) query = query.where({ company_id: input.company_id });
    if (input.environment) query = query.where({ environment: input.environment });
    if (input.status) query = whereStatus(query, input.status, now);
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, (row: ApiKeyRow) =>
      toApiKeyView(row, now),
    );
  },
});
