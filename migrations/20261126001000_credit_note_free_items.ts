import type { Knex } from 'knex';

/**
 * Credit notes may credit freely ("avoirs commerciaux": a discount, a goodwill gesture): such an
 * item names no invoice line, so `credit_note_lines.invoice_line_number` is null for it. It is
 * credited at one of the invoice's VAT rates and counts against what remains at that rate and in
 * total, never against a line.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table credit_note_lines alter column invoice_line_number drop not null');
}

export async function down(knex: Knex): Promise<void> {
  // Free items cannot be expressed without the null: the rollback refuses while any exists.
  await knex.raw('alter table credit_note_lines alter column invoice_line_number set not null');
}
