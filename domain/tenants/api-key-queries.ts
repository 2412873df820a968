import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { API_KEY_COLUMNS, type ApiKeyRow, type KeyStatus } from './api-key-view.js';

/**
 * Reads and revocation of `api_keys` rows. Every function takes the owner's `tenantId` (row-level
 * security filters on it too) and narrows further: a user sees only the keys it created, a tenant
 * only its own keys (not a user's, not a sub-tenant's) of one environment.
 */

/** A user's secret keys, newest first (id breaks ties so pages never overlap). */
export function userKeysQuery(tx: Knex, tenantId: string, userId: string): Knex.QueryBuilder {
  return tx('api_keys')
    .select(API_KEY_COLUMNS)
    .where({ tenant_id: tenantId, user_id: userId, kind: 'secret' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

export async function findUserKey(
  tx: Knex,
  tenantId: string,
  userId: string,
  id: string,
): Promise<ApiKeyRow | undefined> {
  return userKeysQuery(tx, tenantId, userId).where({ id }).first();
}

/**
 * The tenant's own keys (secret and publishable) of one environment, newest first: those bound to no
 * sub-tenant or, for a caller bound to one, those bound to that same sub-tenant.
 */
export function tenantKeysQuery(
  tx: Knex,
  tenantId: string,
  environment: Environment,
  subTenantId: string | null = null,
): Knex.QueryBuilder {
  const query = tx('api_keys').select(API_KEY_COLUMNS).where({ tenant_id: tenantId, environment }).whereNull('user_id');
  return (subTenantId ? query.where({ sub_tenant_id: subTenantId }) : query.whereNull('sub_tenant_id')).orderBy([
    { column: 'created_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ]);
}

/** Narrows a key query to one status, `expired` being derived from `expires_at` (api-key-view.ts). */
export function whereStatus(query: Knex.QueryBuilder, status: KeyStatus, now: Date): Knex.QueryBuilder {
  if (status === 'revoked') return query.where('status', 'revoked');
  if (status === 'expired') return query.where('status', 'active').where('expires_at', '<=', now);
  return query.where('status', 'active').where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now));
}

/**
 * Revokes a key at once: authentication reads the status on every request, so the next request
 * with it fails with API_KEY_REVOKED. An already revoked key is left as it was (first reason kept).
 */
export async function revokeKey(
  tx: Knex,
  tenantId: string,
  id: string,
  reason: string | null,
  now: Date,
): Promise<ApiKeyRow | undefined> {
  const [row] = await tx('api_keys')
    .where({ tenant_id: tenantId, id, status: 'active' })
    .update({ status: 'revoked', revoked_at: now, revoked_reason: reason })
    .returning<ApiKeyRow[]>(API_KEY_COLUMNS as unknown as string[]);
  return row;
}
