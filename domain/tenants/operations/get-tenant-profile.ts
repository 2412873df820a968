import type { EmptyInput } from '../../../schemas/common.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { readTenantProfile, type TenantProfileView } from '../tenant-profile-view.js';

export const getTenantProfile = defineQuery<EmptyInput, TenantProfileView>({
  name: 'get_tenant_profile',
  summary:
    "Read the calling tenant's profile: names, SIRET, e-mails, KYB status, balance (EUR), webhook URL, partner flag and settings. Never a key or a secret.",
  input: 'EmptyInput',
  output: 'TenantProfile',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'get_tenant_profile');
    const profile = await readTenantProfile(ctx.tx, tenantId, environment);
    if (!profile) throw new AppError('NOT_FOUND', 'Tenant not found.');
    return profile;
  },
});
