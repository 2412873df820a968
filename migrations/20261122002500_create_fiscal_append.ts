import type { Knex } from 'knex';

/**
 * `fiscal_append`: appends one entry to its chain in a single round trip, inside the caller's
 * transaction. It takes the chain's transaction-scoped advisory lock first, so that appenders of
 * one chain take turns until commit; the head it then reads (a new snapshot, after the lock) is the
 * last committed entry, and the entry links to it. The hashes are computed here from the exact
 * canonical text given (DECISIONS.md "Fiscal ledger"), and the table's own checks verify them again.
 * It runs with the caller's rights: row-level security applies as to any insert.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function fiscal_append(
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
      select e.sequence_number, e.chain_hash into head
      from fiscal_entries e
      where e.tenant_id = p_tenant_id and e.environment = p_environment
        and coalesce(e.sub_tenant_id, '00000000-0000-0000-0000-000000000000'::uuid)
          = coalesce(p_sub_tenant_id, '00000000-0000-0000-0000-000000000000'::uuid)
      order by e.sequence_number desc
      limit 1;
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
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function fiscal_append');
}
