import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Every integrity check of a tenant's fiscal chains, as it was answered: what was checked, the
 * outcome and the first break. Kept as evidence, so append-only like the ledger itself.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_integrity_checks (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      sub_tenant_id uuid,
      scope_date date,
      valid boolean not null,
      chains_checked integer not null check (chains_checked >= 0),
      entries_checked bigint not null check (entries_checked >= 0),
      first_entry bigint,
      last_entry bigint,
      first_broken_sequence bigint,
      broken_links jsonb not null default '[]',
      checked_at timestamptz not null
    );
    create index fiscal_integrity_checks_tenant_idx on fiscal_integrity_checks (tenant_id, environment, checked_at desc);

    create function fiscal_integrity_checks_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'fiscal_integrity_checks is append-only: % is refused', tg_op using errcode = 'restrict_violation';
    end $$;
    create trigger fiscal_integrity_checks_no_update_delete before update or delete on fiscal_integrity_checks
      for each statement execute function fiscal_integrity_checks_refuse_change();
    create trigger fiscal_integrity_checks_no_truncate before truncate on fiscal_integrity_checks
      for each statement execute function fiscal_integrity_checks_refuse_change();
  `);
  await isolateByTenant(knex, 'fiscal_integrity_checks');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table fiscal_integrity_checks; drop function fiscal_integrity_checks_refuse_change();');
}
