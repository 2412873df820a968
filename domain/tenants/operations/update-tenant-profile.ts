import type { UpdateTenantProfileInput } from '../../../schemas/tenant-profile.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { assertEndpointUrl, syncTenantWebhook } from '../../webhooks/index.js';
import { tenantWideCaller } from '../key-guards.js';
import { readTenantProfile, type TenantProfileView } from '../tenant-profile-view.js';

export const updateTenantProfile = defineCommand<
  UpdateTenantProfileInput,
  TenantProfileView & { webhook_secret?: string }
>({
  name: 'update_tenant_profile',
  summary:
    "Change the calling tenant's name, billing_email, technical_email or webhook_url (https, public). Setting a webhook_url where none was returns its signing secret (webhook_secret) this once. Other fields (SIRET, KYB status, partner flag...) are not writable here and are refused.",
  input: 'UpdateTenantProfileInput',
  output: 'UpdatedTenantProfile',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'update_tenant_profile');
    if (typeof input.webhook_url === 'string') {
      await assertEndpointUrl(input.webhook_url, ctx.deps.config.allowPrivateUrls, 'webhook_url');
    }
    const updated = await ctx
      .tx('tenants')
      .where({ id: tenantId, kind: 'platform' })
      .update({ ...input, updated_at: ctx.clock.now() });
    if (!updated) throw new AppError('NOT_FOUND', 'Tenant not found.');
    const webhook = input.webhook_url !== undefined ? await syncTenantWebhook(ctx, tenantId, input.webhook_url) : null;
    ctx.log.info({ tenant_id: tenantId, fields: Object.keys(input) }, 'tenant profile updated');
    const profile = (await readTenantProfile(ctx.tx, tenantId, environment))!;
    return webhook?.secret ? { ...profile, webhook_secret: webhook.secret } : profile;
  },
});
