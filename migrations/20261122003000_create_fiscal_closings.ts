import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * Fiscal closings (spec "Fiscal records": Closing; DECISIONS.md "Fiscal ledger"): daily, monthly
 * and yearly, one per chain, type and period (the unique index), each sealing the chain up to
 * `last_sequence_number` with its `last_chain_hash`, the period totals, the fiscal-year cumulative
 * and the perpetual totals, and chaining to the previous closing of its chain and type.
 * `canonical_data` is the exact RFC 8785 text hashed into `closing_hash` (checked here). Every
 * closing is also a `closing` entry of its chain (`ledger_entry_id`, appended at commit, hence the
 * deferred key). Append-only for every role; isolated by tenant.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_closings (
      id uuid primary key,
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      type text not null check (type in ('daily', 'monthly', 'yearly')),
      period_start date not null,
      period_end date not null,
      fiscal_year integer not null,
      first_sequence_number bigint check (first_sequence_number >= 1),
      last_sequence_number bigint not null check (last_sequence_number >= 1),
      last_chain_hash char(64) not null check (last_chain_hash ~ '^[0-9a-f]{64}$'),
      entries_count bigint not null check (entries_count >= 0),
      totals jsonb not null,
      fiscal_year_totals jsonb not null,
      perpetual_totals jsonb not null,
      previous_closing_hash char(64) not null check (previous_closing_hash ~ '^[0-9a-f]{64}$'),
      closing_hash char(64) not null check (closing_hash ~ '^[0-9a-f]{64}$'),
      hash_version smallint not null check (hash_version >= 1),
      canonical_data text not null,
      ledger_entry_id uuid not null references fiscal_entries (id) deferrable initially deferred,
      closed_at timestamptz not null,
      constraint fiscal_closings_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint fiscal_closings_period check (period_end >= period_start),
      constraint fiscal_closings_range check (
        (entries_count = 0 and first_sequence_number is null)
        or (entries_count = last_sequence_number - first_sequence_number + 1)),
      constraint fiscal_closings_hash_valid
        check (closing_hash = encode(sha256(convert_to(canonical_data, 'UTF8')), 'hex'))
    );
    create unique index fiscal_closings_chain_period_unique on fiscal_closings
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), type, period_start);
    create index fiscal_closings_tenant_period_idx on fiscal_closings (tenant_id, environment, period_start);
  `);
  await refuseChanges(knex, 'fiscal_closings');
  await isolateByTenant(knex, 'fiscal_closings');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table fiscal_closings; drop function fiscal_closings_refuse_change();');
}
