import type { UpdatedTenantProfile, UpdateTenantProfileInput } from '../../../schemas/tenant-profile.js';
import { AppError } from '../../shared/app-error.js';
import { requireScope } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { assertEndpointUrl, syncTenantWebhook } from '../../webhooks/index.js';
import { tenantWideCaller } from '../key-guards.js';
import { readTenantProfile } from '../tenant-profile-view.js';

export const updateTenantProfile = defineCommand<UpdateTenantProfileInput, UpdatedTenantProfile>({
  name: 'update_tenant_profile',
  summary:
    "Change the calling tenant's name, billing_email, technical_email (scope profile:write) or the webhook_url of the key's environment (https, public; scope webhooks:write too): a sandbox key sets the sandbox URL, a production key the production one. Setting a webhook_url where none was returns its signing secret (webhook_secret) this once. Other fields (SIRET, KYB status, partner flag...) are not writable here and are refused.",
  input: 'UpdateTenantProfileInput',
  output: 'UpdatedTenantProfile',
  callers: ['tenant'],
  scope: 'profile:write',
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'update_tenant_profile');
    const { webhook_url: webhookUrl, ...fields } = input;
    if (webhookUrl !== undefined) requireScope(ctx.caller, 'webhooks:write', 'Changing webhook_url');
    if (typeof webhookUrl === 'string') {
      await assertEndpointUrl(webhookUrl, ctx.deps.config.allowPrivateUrls, 'webhook_url');
    }
    // `tenants.webhook_url` keeps the production URL only, for readers of the tenant row.
    const columns =
      environment === 'production' && webhookUrl !== undefined ? { ...fields, webhook_url: webhookUrl } : fields;
    const updated = await ctx
      .tx('tenants')
      .where({ id: tenantId, kind: 'platform' })
      .update({ ...columns, updated_at: ctx.clock.now() });
    if (!updated) throw new AppError('NOT_FOUND', 'Tenant not found.');
    const webhook = webhookUrl !== undefined ? await syncTenantWebhook(ctx, tenantId, environment, webhookUrl) : null;
    ctx.log.info({ tenant_id: tenantId, environment, fields: Object.keys(input) }, 'tenant profile updated');
    const profile = (await readTenantProfile(ctx.tx, tenantId, environment))!;
    return webhook?.secret ? { ...profile, webhook_secret: webhook.secret } : profile;
  },
});
