import type { EmptyInput } from '../../../schemas/common.js';
import type { TenantLogoutResult } from '../../../schemas/tenant-auth.js';
import { revokeAccessToken } from '../../auth/index.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantOf } from '../key-guards.js';

export const logoutTenant = defineCommand<EmptyInput, TenantLogoutResult>({
  name: 'logout_tenant',
  summary:
    'End the tenant token the request was made with. A secret key has no session to end: revoke keys explicitly (POST /v1/tenant/regenerate-key).',
  input: 'EmptyInput',
  output: 'TenantLogoutResult',
  callers: ['tenant'],
  async run(_input, ctx) {
    tenantOf(ctx.caller, 'logout_tenant');
    const credential = ctx.caller.credential;
    if (credential?.type !== 'tenant_token') {
      return {
        message:
          'Nothing to end: this request used a secret key, which stays valid until it is revoked (POST /api/v1/tenant/regenerate-key replaces it).',
      };
    }
    await revokeAccessToken(ctx.tx, credential.id, ctx.clock.now());
    return { message: 'Signed out: the token is revoked.' };
  },
});
