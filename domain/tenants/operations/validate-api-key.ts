import type { EmptyInput } from '../../../schemas/common.js';
import type { ApiKeyValidation } from '../../../schemas/mcp.js';
import { defineQuery } from '../../shared/operation.js';

/**
 * What the key of the call may do. The key was resolved before (a bad, revoked or expired key never
 * gets here: 401), so the answer reads only the caller.
 */
export const validateApiKey = defineQuery<EmptyInput, ApiKeyValidation>({
  name: 'validate_api_key',
  summary:
    'Confirms the secret key of the call is valid and tells whose it is (a user or a tenant), its environment, its scopes and the sub-tenant or company it is bound to.',
  input: 'EmptyInput',
  output: 'ApiKeyValidation',
  callers: ['user', 'tenant'],
  transactional: false,
  async run(_input, ctx) {
    const { caller } = ctx;
    return {
      valid: true,
      owner: caller.kind === 'tenant' ? 'tenant' : 'user',
      environment: caller.environment ?? 'production',
      scopes: [...caller.scopes],
      sub_tenant_id: caller.subTenantId ?? null,
      company_id: caller.companyId ?? null,
    };
  },
});
