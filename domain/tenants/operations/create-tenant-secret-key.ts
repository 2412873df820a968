import type { CreateTenantKeyInput } from '../../../schemas/tenant-auth.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { type IssuedTenantKey, issueTenantKey } from '../tenant-keys.js';

export const createTenantSecretKey = defineCommand<CreateTenantKeyInput, IssuedTenantKey>({
  name: 'create_tenant_secret_key',
  summary:
    "Create another secret key in the caller's environment (sk_test_ or sk_live_), for server-side use. The full key is returned this once only; existing keys keep working.",
  input: 'CreateTenantKeyInput',
  output: 'NewTenantKey',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'create_tenant_secret_key');
    const issued = await issueTenantKey(ctx.tx, tenantId, 'secret', environment, input.name);
    ctx.log.info({ api_key_id: issued.id, environment }, 'tenant secret key created');
    return issued;
  },
});
