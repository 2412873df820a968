import type { ApiKeyRevocation, RevokeApiKeyInput } from '../../../schemas/api-keys.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { findUserKey, revokeKey } from '../api-key-queries.js';
import { toApiKeyView } from '../api-key-view.js';
import { dashboardUserOf } from '../key-guards.js';

export const revokeApiKey = defineCommand<RevokeApiKeyInput, ApiKeyRevocation>({
  name: 'revoke_api_key',
  summary:
    'Revoke one of your API keys, at once and for good: its next request is refused. Revoking a revoked key changes nothing. To rotate, create a new key first, then revoke the old one.',
  input: 'RevokeApiKeyInput',
  output: 'ApiKeyRevocation',
  callers: ['user'],
  async run(input, ctx) {
    const { tenantId, userId } = dashboardUserOf(ctx.caller, 'revoke_api_key');
    const now = ctx.clock.now();
    const existing = await findUserKey(ctx.tx, tenantId, userId, input.id);
    if (!existing) throw new AppError('NOT_FOUND', `API key ${input.id} not found. GET /api/v1/api-keys lists yours.`);
    if (existing.status === 'revoked') {
      return { message: 'API key was already revoked.', data: toApiKeyView(existing, now) };
    }
    // A concurrent revocation may win the row: then answer with the row as it now is.
    const revoked =
      (await revokeKey(ctx.tx, tenantId, existing.id, input.reason ?? null, now)) ??
      (await findUserKey(ctx.tx, tenantId, userId, input.id))!;
    ctx.log.info({ api_key_id: existing.id }, 'api key revoked');
    return { message: 'API key revoked.', data: toApiKeyView(revoked, now) };
  },
});
