import type { Knex } from 'knex';
import { APP_ROLE } from '../../domain/shared/database.js';

/** The policy of a tenant table before transactions could be written for a set of tenants. */
export const SINGLE_TENANT_POLICY = (column: string): string => `${column} = app_tenant_id() or app_is_system()`;

/**
 * The policy of a tenant table: the rows of the transaction's tenant (`app.tenant_id`), any row for
 * the system (workers, operator commands), or the rows of the tenants a group commit's transaction
 * is written for (`app.tenant_ids`, migrations/20261128040000_batch_tenant_context.ts).
 */
export const BATCH_TENANT_POLICY = (column: string): string =>
  `${SINGLE_TENANT_POLICY(column)} or ${column} = any(app_batch_tenant_ids())`;

/**
 * Row-level security for a tenant-owned table: enabled and forced, with one policy that lets a
 * transaction see and write only the rows of its tenant (set by `execute`), or any row when the
 * caller is the system. Without the settings nothing is visible: the policies fail closed. `column`
 * is the tenant column (`id` for the tenants table itself). The policy is the one of the schema's
 * time: migrations older than `app_batch_tenant_ids()` make the single-tenant one, which that
 * function's migration then widens.
 */
export async function isolateByTenant(knex: Knex, table: string, column = 'tenant_id'): Promise<void> {
  const { rows } = await knex.raw<{ rows: { batch: boolean }[] }>(
    "select to_regprocedure('app_batch_tenant_ids()') is not null as batch",
  );
  const expression = rows[0].batch ? BATCH_TENANT_POLICY(column) : SINGLE_TENANT_POLICY(column);
  await knex.raw(`
    alter table ${table} enable row level security;
    alter table ${table} force row level security;
    create policy ${table}_tenant_isolation on ${table}
      using (${expression})
      with check (${expression});
    grant select, insert, update, delete on ${table} to ${APP_ROLE};
  `);
}

/** A table without tenant data (counters, queues): the application role may use it, no policy. */
export async function grantToApp(knex: Knex, table: string): Promise<void> {
  await knex.raw(`grant select, insert, update, delete on ${table} to ${APP_ROLE}`);
}
