import type { EmptyInput } from '../../../schemas/common.js';
import type { KeyRegeneration } from '../../../schemas/tenant-auth.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { revokeKey } from '../api-key-queries.js';
import { keyOwnerOf } from '../key-guards.js';
import { heldScopes } from '../key-scopes.js';
import { issueTenantKey } from '../tenant-keys.js';

/** Schema `KeyRegeneration`: the type comes from the schema. */
export type { KeyRegeneration };

export const regenerateTenantKey = defineCommand<EmptyInput, KeyRegeneration>({
  name: 'regenerate_tenant_key',
  summary:
    "Replace the secret key the request was made with: a new secret key with the same scopes, sub-tenant binding and expiry is created in the caller's environment and, in the same transaction, the key used is revoked (reason `regenerated`). Called with a tenant token, it only creates a new key with the token's scopes.",
  input: 'EmptyInput',
  output: 'KeyRegeneration',
  callers: ['tenant'],
  scope: 'keys:write',
  async run(_input, ctx) {
    const { tenantId, environment, subTenantId } = keyOwnerOf(ctx.caller, 'regenerate_tenant_key');
    const now = ctx.clock.now();
    const credential = ctx.caller.credential;
    const old =
      credential?.type === 'secret_key'
        ? await revokeKey(ctx.tx, tenantId, credential.id, 'regenerated', now)
        : undefined;
    if (credential?.type === 'secret_key' && !old) {
      // Revoked by a concurrent request since this one was authenticated: a revoked key gets nothing.
      throw new AppError('API_KEY_REVOKED', 'This API key was revoked.');
    }
    // The replacement is the same key under a new secret: what the old row holds, never more.
    const issued = await issueTenantKey(
      ctx.tx,
      tenantId,
      'secret',
      environment,
      old?.name,
      old ? old.scopes : heldScopes(ctx.caller),
      old ? { subTenantId: old.sub_tenant_id, expiresAt: old.expires_at } : { subTenantId },
    );
    ctx.log.info({ api_key_id: issued.id, revoked_api_key_id: old?.id ?? null, environment }, 'tenant key regenerated');
    return {
      message: old
        ? `New secret key created with the same scopes; the key used for this request (${old.key_prefix}…${old.last_four}) is revoked.`
        : 'New secret key created. No key was revoked: this request used a tenant token, not a secret key.',
      data: issued,
      warning: 'Store this key now: it is shown only once and cannot be retrieved later.',
    };
  },
});
