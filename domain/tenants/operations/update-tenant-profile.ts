import type { UpdateTenantProfileInput } from '../../../schemas/tenant-profile.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { readTenantProfile, type TenantProfileView } from '../tenant-profile-view.js';
import { webhookUrlProblem } from '../webhook-url.js';

export const updateTenantProfile = defineCommand<UpdateTenantProfileInput, TenantProfileView>({
  name: 'update_tenant_profile',
  summary:
    "Change the calling tenant's name, billing_email, technical_email or webhook_url (https). Other fields (SIRET, KYB status, partner flag...) are not writable here and are refused.",
  input: 'UpdateTenantProfileInput',
  output: 'TenantProfile',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'update_tenant_profile');
    if (typeof input.webhook_url === 'string') {
      const problem = webhookUrlProblem(input.webhook_url, ctx.deps.config.allowPrivateUrls);
      if (problem) throw AppError.validation({ webhook_url: [problem] });
    }
    const updated = await ctx
      .tx('tenants')
      .where({ id: tenantId, kind: 'platform' })
      .update({ ...input, updated_at: ctx.clock.now() });
    if (!updated) throw new AppError('NOT_FOUND', 'Tenant not found.');
    ctx.log.info({ tenant_id: tenantId, fields: Object.keys(input) }, 'tenant profile updated');
    return (await readTenantProfile(ctx.tx, tenantId, environment))!;
  },
});
