import type { Knex } from 'knex';
import { APP_ROLE } from '../../domain/shared/database.js';

/**
 * Row-level security for a tenant-owned table: enabled and forced, with one policy that lets a
 * transaction see and write only the rows of `app.tenant_id` (set by `execute`), or any row when
 * the caller is the system (workers, operator commands). Without the settings nothing is visible:
 * the policies fail closed. `column` is the tenant column (`id` for the tenants table itself).
 */
export async function isolateByTenant(knex: Knex, table: string, column = 'tenant_id'): Promise<void> {
  await knex.raw(`
    alter table ${table} enable row level security;
    alter table ${table} force row level security;
    create policy ${table}_tenant_isolation on ${table}
      using (${column} = app_tenant_id() or app_is_system())
      with check (${column} = app_tenant_id() or app_is_system());
    grant select, insert, update, delete on ${table} to ${APP_ROLE};
  `);
}

/** A table without tenant data (counters, queues): the application role may use it, no policy. */
export async function grantToApp(knex: Knex, table: string): Promise<void> {
  await knex.raw(`grant select, insert, update, delete on ${table} to ${APP_ROLE}`);
}
