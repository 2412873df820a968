import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { regenerateTenantWebhookSecretOf } from '../tenant-webhook.js';

export const regenerateTenantWebhookSecret = defineCommand<EmptyInput, { webhook_url: string; webhook_secret: string }>(
  {
    name: 'regenerate_tenant_webhook_secret',
    summary:
      "Replace the signing secret of the tenant's webhook_url of the key's environment (sandbox and production each have their own). The old secret stops at once: every delivery from now on, retries included, is signed with the new one, returned this once.",
    input: 'EmptyInput',
    output: 'TenantWebhookSecret',
    callers: ['tenant'],
    scope: 'webhooks:write',
    async run(_input, ctx) {
      const { tenantId, environment } = tenantWideCaller(ctx.caller, 'regenerate_tenant_webhook_secret');
      const regenerated = await regenerateTenantWebhookSecretOf(ctx, tenantId, environment);
      if (!regenerated) {
        throw new AppError(
          'INVALID_STATE',
          `No ${environment} webhook_url is set: set one with PUT /api/v1/tenant/me first.`,
          {
            retryable: false,
          },
        );
      }
      ctx.log.info({ tenant_id: tenantId, environment }, 'tenant webhook secret regenerated');
      return { webhook_url: regenerated.url, webhook_secret: regenerated.secret };
    },
  },
);
