import type { CreateTenantSecretKeyInput } from '../../../schemas/tenant-auth.js';
import { defineCommand } from '../../shared/operation.js';
import { keyOwnerOf } from '../key-guards.js';
import { scopesForNewKey } from '../key-scopes.js';
import { creatorExpiry, type IssuedTenantKey, issueTenantKey } from '../tenant-keys.js';

export const createTenantSecretKey = defineCommand<CreateTenantSecretKeyInput, IssuedTenantKey>({
  name: 'create_tenant_secret_key',
  summary:
    "Create another secret key in the caller's environment (sk_test_ or sk_live_), for server-side use. Its scopes are those asked for, each held by the credential making the request (403 SCOPE_NOT_GRANTED otherwise), or exactly the caller's when none are asked for; a key bound to a sub-tenant makes keys bound to the same sub-tenant, and a key with an expiry makes keys that expire with it. The full key is returned this once only; existing keys keep working.",
  input: 'CreateTenantSecretKeyInput',
  output: 'NewTenantKey',
  callers: ['tenant'],
  scope: 'keys:write',
  async run(input, ctx) {
    const { tenantId, environment, subTenantId } = keyOwnerOf(ctx.caller, 'create_tenant_secret_key');
    const scopes = scopesForNewKey(ctx.caller, input.scopes);
    const expiresAt = await creatorExpiry(ctx.tx, tenantId, ctx.caller);
    const issued = await issueTenantKey(ctx.tx, tenantId, 'secret', environment, input.name, scopes, {
      subTenantId,
      expiresAt,
    });
    ctx.log.info(
      { api_key_id: issued.id, environment, scopes, sub_tenant_id: subTenantId },
      'tenant secret key created',
    );
    return issued;
  },
});
