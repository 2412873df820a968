import type { Knex } from 'knex';
import { insertTenant } from '../../domain/tenants/tenant-store.js';

/** Each test seeds its own tenant: no truncation, and isolation is tested for free. */
export async function seedTenant(db: Knex, name = 'Test Tenant'): Promise<{ id: string }> {
  return insertTenant(db, { kind: 'platform', name, email: null, siret: '73282932000074', now: new Date() });
}

/** Jobs of a queue as pg-boss stored them. */
export async function queuedJobs(db: Knex, queue: string): Promise<Record<string, unknown>[]> {
  const { rows } = await db.raw<{ rows: { data: Record<string, unknown> }[] }>(
    'select data from pgboss.job where name = ? order by created_on',
    [queue],
  );
  return rows.map((row) => row.data);
}
