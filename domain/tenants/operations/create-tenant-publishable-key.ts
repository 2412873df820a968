import type { CreateTenantKeyInput } from '../../../schemas/tenant-auth.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { type IssuedTenantKey, issueTenantKey } from '../tenant-keys.js';

export const createTenantPublishableKey = defineCommand<CreateTenantKeyInput, IssuedTenantKey>({
  name: 'create_tenant_publishable_key',
  summary:
    "Create another publishable key in the caller's environment (pk_test_ or pk_live_), safe in browsers for onboarding widgets. Needs the keys:write scope and the tenant's own key (publishable keys act for the whole tenant). The full key is returned this once only.",
  input: 'CreateTenantKeyInput',
  output: 'NewTenantKey',
  callers: ['tenant'],
  scope: 'keys:write',
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'create_tenant_publishable_key');
    const issued = await issueTenantKey(ctx.tx, tenantId, 'publishable', environment, input.name);
    ctx.log.info({ api_key_id: issued.id, environment }, 'tenant publishable key created');
    return issued;
  },
});
