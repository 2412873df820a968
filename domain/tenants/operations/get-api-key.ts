import type { GetApiKeyInput } from '../../../schemas/api-keys.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { findUserKey } from '../api-key-queries.js';
import { type ApiKeyView, toApiKeyView } from '../api-key-view.js';
import { dashboardUserOf } from '../key-guards.js';

export const getApiKey = defineQuery<GetApiKeyInput, ApiKeyView>({
  name: 'get_api_key',
  summary: 'Read one of your API keys (never the key itself).',
  input: 'GetApiKeyInput',
  output: 'ApiKey',
  callers: ['user'],
  async run(input, ctx) {
    const { tenantId, userId } = dashboardUserOf(ctx.caller, 'get_api_key');
    const row = await findUserKey(ctx.tx, tenantId, userId, input.id);
    if (!row) throw new AppError('NOT_FOUND', `API key ${input.id} not found. GET /api/v1/api-keys lists yours.`);
    return toApiKeyView(row, ctx.clock.now());
  },
});
