import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Where each provider account's inbox sync stands (provider-apis.md §1.7): the last provider
 * invoice id stored. Keyed by the account id as text, so it depends on no connections table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table incoming_sync_cursors (
      account_id text primary key check (char_length(account_id) between 1 and 100),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      sub_tenant_id uuid,
      after_id text,
      synced_at timestamptz,
      updated_at timestamptz not null default now()
    );
    create index incoming_sync_cursors_tenant_idx on incoming_sync_cursors (tenant_id);
  `);
  await isolateByTenant(knex, 'incoming_sync_cursors');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table incoming_sync_cursors');
}
