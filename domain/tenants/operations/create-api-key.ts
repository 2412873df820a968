import type { ApiKeyCreation, CreateApiKeyInput } from '../../../schemas/api-keys.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { findUserKey } from '../api-key-queries.js';
import { insertApiKey } from '../api-key-store.js';
import { toApiKeyView } from '../api-key-view.js';
import { assertEmailVerified, dashboardUserOf } from '../key-guards.js';

export const createApiKey = defineCommand<CreateApiKeyInput, ApiKeyCreation>({
  name: 'create_api_key',
  summary:
    'Create an API key (sk_test_ for sandbox, sk_live_ for production: needs a confirmed e-mail), optionally restricted to one of your companies, to some scopes or until a date. The full key is returned this once only.',
  input: 'CreateApiKeyInput',
  output: 'ApiKeyCreation',
  callers: ['user'],
  async run(input, ctx) {
    const { tenantId, userId } = dashboardUserOf(ctx.caller, 'create_api_key');
    const now = ctx.clock.now();
    if (input.environment === 'production') await assertEmailVerified(ctx.tx, tenantId, userId);
    const errors: Record<string, string[]> = {};
    const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) errors.expires_at = ['must be in the future'];
    if (input.company_id) {
      const company = await ctx
        .tx('companies')
        .where({ tenant_id: tenantId, id: input.company_id })
        .whereNull('deleted_at')
        .first('id');
      if (!company) errors.company_id = ['must be one of your companies'];
    }
    if (Object.keys(errors).length) throw AppError.validation(errors);

    const created = await insertApiKey(ctx.tx, tenantId, {
      name: input.name,
      kind: 'secret',
      environment: input.environment,
      scopes: input.scopes ?? ['invoices', 'signatures'],
      userId,
      companyId: input.company_id ?? null,
      expiresAt,
    });
    const row = (await findUserKey(ctx.tx, tenantId, userId, created.id))!;
    ctx.log.info({ api_key_id: row.id, environment: row.environment }, 'api key created');
    return {
      message: 'API key created.',
      data: { ...toApiKeyView(row, now), key: created.key },
      warning: 'Store this key now: it is shown only once and cannot be retrieved later.',
    };
  },
});
