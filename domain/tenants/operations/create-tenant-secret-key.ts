import type { CreateTenantSecretKeyInput } from '../../../schemas/tenant-auth.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { type IssuedTenantKey, issueTenantKey } from '../tenant-keys.js';

export const createTenantSecretKey = defineCommand<CreateTenantSecretKeyInput, IssuedTenantKey>({
  name: 'create_tenant_secret_key',
  summary:
    "Create another secret key in the caller's environment (sk_test_ or sk_live_), for server-side use, with the scopes it may use (every scope by default). The full key is returned this once only; existing keys keep working.",
  input: 'CreateTenantSecretKeyInput',
  output: 'NewTenantKey',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'create_tenant_secret_key');
    const issued = await issueTenantKey(ctx.tx, tenantId, 'secret', environment, input.name, input.scopes);
    ctx.log.info({ api_key_id: issued.id, environment }, 'tenant secret key created');
    return issued;
  },
});
