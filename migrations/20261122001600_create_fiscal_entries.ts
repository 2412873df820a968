import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

const GENESIS = '0'.repeat(64);
/** Stands for "no sub-tenant" in the chain key, so the tenant's own chain is unique and indexed too. */
const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * The fiscal ledger (spec "Fiscal records"; DECISIONS.md "Fiscal ledger"). One hash chain per
 * (tenant, sub-tenant or none, environment); `sequence_number` runs from 1 without gaps. The
 * database itself refuses what would break a chain, whoever writes:
 * - `canonical_data` is the exact text hashed (RFC 8785 JSON of `data`); `data_hash` is its SHA-256
 *   and `chain_hash` = SHA-256(previous_hash || data_hash), both checked here;
 * - an insert must take the next number of its chain and link to the chain's last `chain_hash`
 *   (64 zeros for the first), so no gap, fork or broken link can be written;
 * - UPDATE, DELETE and TRUNCATE are refused by statement-level triggers, for every role, whether
 *   or not a row would be touched. Corrections are new entries (credit notes), never edits.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unique index sub_tenants_id_tenant_environment_key on sub_tenants (id, tenant_id, environment);

    create table fiscal_entries (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      sequence_number bigint not null check (sequence_number >= 1),
      entry_type text not null
        check (entry_type in ('invoice_created', 'credit_note_issued', 'payment', 'closing')),
      entity_type text not null check (entity_type ~ '^[a-z][a-z_]{0,63}$'),
      entity_id uuid not null,
      fiscal_date date not null,
      hash_version smallint not null default 1 check (hash_version >= 1),
      data jsonb not null check (jsonb_typeof(data) = 'object'),
      canonical_data text not null,
      data_hash char(64) not null check (data_hash ~ '^[0-9a-f]{64}$'),
      previous_hash char(64) not null check (previous_hash ~ '^[0-9a-f]{64}$'),
      chain_hash char(64) not null check (chain_hash ~ '^[0-9a-f]{64}$'),
      legal_status text not null check (legal_status in ('definitive', 'test')),
      created_at timestamptz not null default now(),
      constraint fiscal_entries_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint fiscal_entries_data_matches_canonical check (data = canonical_data::jsonb),
      constraint fiscal_entries_data_hash_valid
        check (data_hash = encode(sha256(convert_to(canonical_data, 'UTF8')), 'hex')),
      constraint fiscal_entries_chain_hash_valid
        check (chain_hash = encode(sha256(convert_to(previous_hash || data_hash, 'UTF8')), 'hex')),
      constraint fiscal_entries_legal_status_environment
        check ((legal_status = 'definitive') = (environment = 'production'))
    );
    create unique index fiscal_entries_chain_sequence_unique on fiscal_entries
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), sequence_number);
    create index fiscal_entries_tenant_date_idx on fiscal_entries (tenant_id, environment, fiscal_date, sequence_number);
    create index fiscal_entries_sub_tenant_idx on fiscal_entries (sub_tenant_id) where sub_tenant_id is not null;

    create function fiscal_entries_check_link() returns trigger language plpgsql as $$
    declare
      last record;
    begin
      select e.sequence_number, e.chain_hash into last
      from fiscal_entries e
      where e.tenant_id = new.tenant_id and e.environment = new.environment
        and coalesce(e.sub_tenant_id, '${NO_SUB_TENANT}'::uuid) = coalesce(new.sub_tenant_id, '${NO_SUB_TENANT}'::uuid)
      order by e.sequence_number desc
      limit 1;
      if new.sequence_number <> coalesce(last.sequence_number, 0) + 1 then
        raise exception 'fiscal_entries: sequence_number % breaks the chain; the next number is %',
          new.sequence_number, coalesce(last.sequence_number, 0) + 1
          using errcode = 'integrity_constraint_violation';
      end if;
      if new.previous_hash <> coalesce(last.chain_hash, '${GENESIS}') then
        raise exception 'fiscal_entries: previous_hash must be the chain_hash of entry % of the chain',
          coalesce(last.sequence_number, 0)
          using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$;
    create trigger fiscal_entries_link before insert on fiscal_entries
      for each row execute function fiscal_entries_check_link();

    create function fiscal_entries_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'fiscal_entries is append-only: % is refused (ledger entries are immutable; record a new entry instead)', tg_op
        using errcode = 'restrict_violation',
              hint = 'Fiscal retention: entries are kept unchanged; corrections are new entries such as credit notes.';
    end $$;
    create trigger fiscal_entries_no_update_delete before update or delete on fiscal_entries
      for each statement execute function fiscal_entries_refuse_change();
    create trigger fiscal_entries_no_truncate before truncate on fiscal_entries
      for each statement execute function fiscal_entries_refuse_change();
  `);
  await isolateByTenant(knex, 'fiscal_entries');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table fiscal_entries;
    drop function fiscal_entries_refuse_change();
    drop function fiscal_entries_check_link();
    drop index sub_tenants_id_tenant_environment_key;
  `);
}
