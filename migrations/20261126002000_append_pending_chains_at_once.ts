import type { Knex } from 'knex';
import { NO_SUB_TENANT } from '../domain/ledger/fiscal-chain-summary.js';

/**
 * Pending ledger facts are appended a chain at a time. Until now each `fiscal_pending` row's deferred
 * trigger appended that row alone (`fiscal_append`): a transaction that recorded 25 facts of one
 * chain (a group commit of 25 invoice creations) took the chain's lock, read its head, ran an insert
 * and a delete 25 times. Now the first row of a chain to fire appends every pending row of that
 * chain in this transaction, in the order they were recorded (`position`), with one head read and
 * one multi-row insert; the later rows' triggers find their row gone and return.
 *
 * What an entry is does not change: the same numbers, hashes and links, checked row by row by
 * `fiscal_entries_check_link` (a row-level BEFORE trigger sees the head as the previous row of the
 * same insert left it). The lock is taken at the same point (the chain's first fact), so transactions
 * touching several chains take their locks in the same order as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table fiscal_pending add column position bigint generated always as identity;
    create index fiscal_pending_chain_idx on fiscal_pending (tenant_id, environment, position);

    create or replace function fiscal_pending_append() returns trigger language plpgsql as $$
    declare
      head record;
      fact record;
      previous char(64);
      data_hash char(64);
      link char(64);
      next_number bigint;
      ids uuid[] := '{}';
      numbers bigint[] := '{}';
      entry_types text[] := '{}';
      entity_types text[] := '{}';
      entity_ids uuid[] := '{}';
      fiscal_dates date[] := '{}';
      hash_versions smallint[] := '{}';
      canonicals text[] := '{}';
      data_hashes char(64)[] := '{}';
      previous_hashes char(64)[] := '{}';
      chain_hashes char(64)[] := '{}';
      created_ats timestamptz[] := '{}';
    begin
      -- Appended already, with an earlier fact of its chain.
      perform 1 from fiscal_pending p where p.id = new.id;
      if not found then
        return null;
      end if;
      perform pg_advisory_xact_lock(hashtextextended(
        'fiscal:' || new.tenant_id || ':' || new.environment || ':' || coalesce(new.sub_tenant_id::text, '-'), 0));
      select h.sequence_number, h.chain_hash into head
      from fiscal_chain_heads h
      where h.tenant_id = new.tenant_id and h.environment = new.environment
        and h.chain_key = coalesce(new.sub_tenant_id, '${NO_SUB_TENANT}'::uuid);
      previous := coalesce(head.chain_hash, repeat('0', 64));
      next_number := coalesce(head.sequence_number, 0);
      for fact in
        select p.* from fiscal_pending p
        where p.tenant_id = new.tenant_id and p.environment = new.environment
          and p.sub_tenant_id is not distinct from new.sub_tenant_id
        order by p.position
      loop
        next_number := next_number + 1;
        data_hash := encode(sha256(convert_to(fact.canonical_data, 'UTF8')), 'hex');
        link := encode(sha256(convert_to(previous || data_hash, 'UTF8')), 'hex');
        ids := ids || fact.id;
        numbers := numbers || next_number;
        entry_types := entry_types || fact.entry_type;
        entity_types := entity_types || fact.entity_type;
        entity_ids := entity_ids || fact.entity_id;
        fiscal_dates := fiscal_dates || fact.fiscal_date;
        hash_versions := hash_versions || fact.hash_version;
        canonicals := canonicals || fact.canonical_data;
        data_hashes := data_hashes || data_hash;
        previous_hashes := previous_hashes || previous;
        chain_hashes := chain_hashes || link;
        created_ats := created_ats || fact.created_at;
        previous := link;
      end loop;
      insert into fiscal_entries (
        id, tenant_id, sub_tenant_id, environment, sequence_number, entry_type, entity_type, entity_id,
        fiscal_date, hash_version, data, canonical_data, data_hash, previous_hash, chain_hash, legal_status, created_at)
      select e.id, new.tenant_id, new.sub_tenant_id, new.environment, e.number, e.entry_type, e.entity_type,
        e.entity_id, e.fiscal_date, e.hash_version, e.canonical::jsonb, e.canonical, e.data_hash, e.previous_hash,
        e.chain_hash, case when new.environment = 'production' then 'definitive' else 'test' end, e.created_at
      from unnest(ids, numbers, entry_types, entity_types, entity_ids, fiscal_dates, hash_versions, canonicals,
        data_hashes, previous_hashes, chain_hashes, created_ats)
        as e(id, number, entry_type, entity_type, entity_id, fiscal_date, hash_version, canonical, data_hash,
          previous_hash, chain_hash, created_at)
      order by e.number;
      delete from fiscal_pending p where p.id = any(ids);
      return null;
    end $$;
  `);
}

/** Back to one append per pending row (the entries written meanwhile are ordinary entries). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function fiscal_pending_append() returns trigger language plpgsql as $$
    begin
      perform fiscal_append(new.id, new.tenant_id, new.sub_tenant_id, new.environment, new.entry_type,
        new.entity_type, new.entity_id, new.fiscal_date, new.hash_version, new.canonical_data, new.created_at);
      delete from fiscal_pending where id = new.id;
      return null;
    end $$;
    drop index fiscal_pending_chain_idx;
    alter table fiscal_pending drop column position;
  `);
}
