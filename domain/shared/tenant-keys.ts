import type { Knex } from 'knex';

/**
 * A row asked for by id together with the tenant it must belong to: how a worker's batch across
 * tenants (run as the system) names the rows of its jobs, each job carrying its tenant.
 */
export interface TenantKey {
  id: string;
  tenant_id: string;
}

/**
 * Narrows `query` to the ids of `keys` and their tenants, in one clause whose text is the same
 * whatever the number of keys (planned once as a named statement). An id asked with one tenant may
 * still come back with another of the batch's tenants: `keepAsked` drops it.
 */
export function whereTenantKeys<Q extends Knex.QueryBuilder>(query: Q, keys: readonly TenantKey[]): Q {
  return query.whereRaw('id = any(?::uuid[]) and tenant_id = any(?::uuid[])', [
    [...new Set(keys.map((k) => k.id))],
    [...new Set(keys.map((k) => k.tenant_id))],
  ]) as Q;
}

/** The rows whose (id, tenant) pair was asked for, in their order: a job never reaches another tenant's row. */
export function keepAsked<R extends TenantKey>(rows: readonly R[], keys: readonly TenantKey[]): R[] {
  const asked = new Set(keys.map((k) => `${k.id}:${k.tenant_id}`));
  return rows.filter((row) => asked.has(`${row.id}:${row.tenant_id}`));
}
