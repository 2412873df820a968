import type { Knex } from 'knex';
import { NO_SUB_TENANT } from '../domain/ledger/index.js';
import { isolateByTenant } from './support/tenant-isolation.js';

const GENESIS = '0'.repeat(64);

/**
 * The head of each fiscal chain (its last sequence number and `chain_hash`) in a row of its own,
 * so that appending reads one row by primary key whatever the chain's length. Reading the head
 * from `fiscal_entries` (`order by sequence_number desc limit 1`) let the planner pick the date
 * index and sort the whole chain on every append: linear in the chain's length, under the chain's
 * lock, as measured by the invoice_create benchmark.
 *
 * The row is maintained by the ledger's own insert trigger, in the same statement as the entry:
 * the trigger locks the head row, checks the new entry's number and link against it, and moves it.
 * No client statement may write the table (its guard allows writes only from inside that trigger),
 * and it is isolated per tenant like the ledger.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_chain_heads (
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      chain_key uuid not null,
      sequence_number bigint not null check (sequence_number >= 1),
      chain_hash char(64) not null check (chain_hash ~ '^[0-9a-f]{64}$'),
      primary key (tenant_id, environment, chain_key)
    );
    comment on column fiscal_chain_heads.chain_key is 'The sub-tenant, or ${NO_SUB_TENANT} for the tenant''s own chain.';

    insert into fiscal_chain_heads (tenant_id, environment, chain_key, sequence_number, chain_hash)
    select distinct on (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid))
      tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), sequence_number, chain_hash
    from fiscal_entries
    order by tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), sequence_number desc;

    create function fiscal_chain_heads_guard() returns trigger language plpgsql as $$
    begin
      if pg_trigger_depth() < 2 then
        raise exception 'fiscal_chain_heads is maintained by the ledger: % is refused', tg_op
          using errcode = 'restrict_violation';
      end if;
      return coalesce(new, old);
    end $$;
    create trigger fiscal_chain_heads_guard before insert or update or delete on fiscal_chain_heads
      for each row execute function fiscal_chain_heads_guard();
    create trigger fiscal_chain_heads_no_truncate before truncate on fiscal_chain_heads
      for each statement execute function fiscal_entries_refuse_change();

    create or replace function fiscal_entries_check_link() returns trigger language plpgsql as $$
    declare
      chain uuid := coalesce(new.sub_tenant_id, '${NO_SUB_TENANT}'::uuid);
      last record;
    begin
      select h.sequence_number, h.chain_hash into last
      from fiscal_chain_heads h
      where h.tenant_id = new.tenant_id and h.environment = new.environment and h.chain_key = chain
      for update;
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
      if last.sequence_number is null then
        insert into fiscal_chain_heads (tenant_id, environment, chain_key, sequence_number, chain_hash)
        values (new.tenant_id, new.environment, chain, new.sequence_number, new.chain_hash);
      else
        update fiscal_chain_heads h set sequence_number = new.sequence_number, chain_hash = new.chain_hash
        where h.tenant_id = new.tenant_id and h.environment = new.environment and h.chain_key = chain;
      end if;
      return new;
    end $$;

    create or replace function fiscal_append(
      p_id uuid, p_tenant_id uuid, p_sub_tenant_id uuid, p_environment text, p_entry_type text,
      p_entity_type text, p_entity_id uuid, p_fiscal_date date, p_hash_version smallint,
      p_canonical_data text, p_created_at timestamptz
    ) returns table (id uuid, sequence_number bigint, chain_hash char(64))
    language plpgsql volatile as $$
    declare
      head record;
      previous char(64);
      data_hash char(64);
    begin
      perform pg_advisory_xact_lock(hashtextextended(
        'fiscal:' || p_tenant_id || ':' || p_environment || ':' || coalesce(p_sub_tenant_id::text, '-'), 0));
      select h.sequence_number, h.chain_hash into head
      from fiscal_chain_heads h
      where h.tenant_id = p_tenant_id and h.environment = p_environment
        and h.chain_key = coalesce(p_sub_tenant_id, '${NO_SUB_TENANT}'::uuid);
      previous := coalesce(head.chain_hash, repeat('0', 64));
      data_hash := encode(sha256(convert_to(p_canonical_data, 'UTF8')), 'hex');
      return query
        insert into fiscal_entries as f (
          id, tenant_id, sub_tenant_id, environment, sequence_number, entry_type, entity_type, entity_id,
          fiscal_date, hash_version, data, canonical_data, data_hash, previous_hash, chain_hash, legal_status, created_at)
        values (
          coalesce(p_id, gen_random_uuid()), p_tenant_id, p_sub_tenant_id, p_environment,
          coalesce(head.sequence_number, 0) + 1, p_entry_type, p_entity_type, p_entity_id, p_fiscal_date,
          p_hash_version, p_canonical_data::jsonb, p_canonical_data, data_hash, previous,
          encode(sha256(convert_to(previous || data_hash, 'UTF8')), 'hex'),
          case when p_environment = 'production' then 'definitive' else 'test' end, p_created_at)
        returning f.id, f.sequence_number, f.chain_hash;
    end $$;
  `);
  await isolateByTenant(knex, 'fiscal_chain_heads');
}

/** Forward only: the heads are part of the ledger's integrity, and the earlier head lookup is the defect fixed here. */
export async function down(): Promise<void> {
  throw new Error('20261122003800_create_fiscal_chain_heads is forward-only: the ledger keeps its chain heads');
}
