import type { Knex } from 'knex';

/**
 * The day a supplier invoice was paid, given with mark-paid (today when left out). Invoices paid
 * before this column keep null: the day is unknown, and `decided_at` still says when it was marked.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table incoming_invoices add column paid_at date');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table incoming_invoices drop column paid_at');
}
