import type { Knex } from 'knex';
import type { NewTenantKey } from '../../schemas/tenant-auth.js';
import type { Caller, Environment } from '../shared/caller.js';
import { type KeyKind, TENANT_KEY_SCOPES } from './api-key.js';
import { insertApiKey } from './api-key-store.js';

/** Schema `NewTenantKey`: the type comes from the schema. */
export type IssuedTenantKey = NewTenantKey;

/**
 * A tenant's own key. Left out, a secret key's scopes are every tenant scope (the operator's command
 * line and a new tenant's first keys); operations pass what the caller may grant (key-scopes.ts).
 * Publishable keys carry none.
 */
export async function issueTenantKey(
  tx: Knex,
  tenantId: string,
  kind: KeyKind,
  environment: Environment,
  name = `${environment === 'production' ? 'Production' : 'Sandbox'} ${kind} key`,
  scopes: readonly string[] = TENANT_KEY_SCOPES,
  /** A secret key's sub-tenant binding and its end, if any (those of the key that made it). */
  bounds: { subTenantId?: string | null; expiresAt?: Date | null } = {},
): Promise<IssuedTenantKey> {
  const created = await insertApiKey(tx, tenantId, {
    name,
    kind,
    environment,
    scopes: kind === 'secret' ? scopes : [],
    subTenantId: kind === 'secret' ? (bounds.subTenantId ?? null) : null,
    expiresAt: kind === 'secret' ? (bounds.expiresAt ?? null) : null,
  });
  return { id: created.id, key: created.key, type: kind, created_at: created.createdAt.toISOString() };
}

/**
 * When the key making a request stops working, if it has an end: a key it makes or regenerates ends
 * then too, so a key never outlives the one that made it. Tenant tokens make keys without an end
 * (signing in is how the tenant itself makes its keys).
 */
export async function creatorExpiry(tx: Knex, tenantId: string, caller: Caller): Promise<Date | null> {
  if (caller.credential?.type !== 'secret_key') return null;
  const row = await tx('api_keys')
    .where({ tenant_id: tenantId, id: caller.credential.id })
    .first<{ expires_at: Date | null } | undefined>('expires_at');
  return row?.expires_at ?? null;
}
