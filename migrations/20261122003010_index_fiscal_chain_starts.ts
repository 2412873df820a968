import type { Knex } from 'knex';

/**
 * Every chain has exactly one entry number 1: this small index lists the chains (and when each
 * began) without scanning the ledger, for the closing scheduler.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create index fiscal_entries_chain_start_idx on fiscal_entries (tenant_id, environment, sub_tenant_id, created_at)
      where sequence_number = 1;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index fiscal_entries_chain_start_idx');
}
