import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { generateApiKey, type KeyKind } from './api-key.js';

export interface NewApiKey {
  name: string;
  kind: KeyKind;
  environment: Environment;
  scopes: readonly string[];
  userId?: string | null;
  companyId?: string | null;
  subTenantId?: string | null;
  expiresAt?: Date | null;
}

/** Inserts a key and returns the full key, which exists only in this return value. */
export async function insertApiKey(
  tx: Knex,
  tenantId: string,
  input: NewApiKey,
): Promise<{ id: string; key: string; prefix: string; createdAt: Date }> {
  const generated = generateApiKey(input.kind, input.environment);
  const [row] = await tx('api_keys')
    .insert({
      tenant_id: tenantId,
      user_id: input.userId ?? null,
      company_id: input.companyId ?? null,
      sub_tenant_id: input.subTenantId ?? null,
      name: input.name,
      kind: input.kind,
      environment: input.environment,
      key_prefix: generated.prefix,
      key_hash: generated.hash,
      last_four: generated.lastFour,
      scopes: [...input.scopes],
      expires_at: input.expiresAt ?? null,
    })
    .returning<{ id: string; created_at: Date }[]>(['id', 'created_at']);
  return { id: row.id, key: generated.key, prefix: generated.prefix, createdAt: row.created_at };
}

/**
 * Revokes an active key by its id, at once (a leaked credential: a replayed onboarding code).
 * Returns whether it was active. The API's own revocation is `revokeKey` (api-key-queries.ts).
 */
export async function revokeActiveKey(
  tx: Knex,
  tenantId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const count = await tx('api_keys')
    .where({ tenant_id: tenantId, id, status: 'active' })
    .update({ status: 'revoked', revoked_at: now, revoked_reason: reason });
  return count === 1;
}
