import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Ledger entries are linked at commit. A business transaction records its fact in
 * `fiscal_pending`; a deferred constraint trigger then appends it with `fiscal_append` while the
 * transaction commits: the chain's advisory lock is taken there, inside the same transaction, and
 * held only for the append and the commit itself, never across a round trip to the application.
 * The pending row is removed in the same step, so the table is empty outside open transactions.
 * A fact recorded in a rolled-back transaction (or savepoint) is never appended.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_pending (
      id uuid primary key,
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      entry_type text not null,
      entity_type text not null,
      entity_id uuid not null,
      fiscal_date date not null,
      hash_version smallint not null,
      canonical_data text not null,
      created_at timestamptz not null
    );

    create function fiscal_pending_append() returns trigger language plpgsql as $$
    begin
      perform fiscal_append(new.id, new.tenant_id, new.sub_tenant_id, new.environment, new.entry_type,
        new.entity_type, new.entity_id, new.fiscal_date, new.hash_version, new.canonical_data, new.created_at);
      delete from fiscal_pending where id = new.id;
      return null;
    end $$;
    create constraint trigger fiscal_pending_append after insert on fiscal_pending
      deferrable initially deferred for each row execute function fiscal_pending_append();
  `);
  await isolateByTenant(knex, 'fiscal_pending');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table fiscal_pending; drop function fiscal_pending_append();');
}
