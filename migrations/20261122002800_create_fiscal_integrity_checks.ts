import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
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
  `);
  await refuseChanges(knex, 'fiscal_integrity_checks');
  await isolateByTenant(knex, 'fiscal_integrity_checks');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table fiscal_integrity_checks; drop function fiscal_integrity_checks_refuse_change();');
}
