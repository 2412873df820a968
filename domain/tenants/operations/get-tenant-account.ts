import type { EmptyInput } from '../../../schemas/common.js';
import type { TenantAccount } from '../../../schemas/tenant-auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantOf } from '../key-guards.js';

interface AccountRow {
  id: string;
  name: string;
  email: string | null;
  siret: string | null;
  kyb_status: TenantAccount['kyb_status'];
  created_at: Date;
}

export const getTenantAccount = defineQuery<EmptyInput, TenantAccount>({
  name: 'get_tenant_account',
  summary: 'Read the signed-in tenant: name, e-mail, SIRET, KYB status and the environment of the credential.',
  input: 'EmptyInput',
  output: 'TenantAccount',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId, environment } = tenantOf(ctx.caller, 'get_tenant_account');
    const row = await ctx
      .tx('tenants')
      .where({ id: tenantId, kind: 'platform' })
      .first<AccountRow>(['id', 'name', 'email', 'siret', 'kyb_status', 'created_at']);
    if (!row) throw new AppError('NOT_FOUND', 'Tenant not found.');
    return { ...row, environment, created_at: row.created_at.toISOString() };
  },
});
