import type { Knex } from 'knex';

/**
 * An integrity check may report on a period of days (`date_from`..`date_to`), not only one day:
 * `scope_date` holds its first day and `scope_date_to` its last (equal for one day; both null for
 * the whole chain). The table is append-only: checks recorded before hold one day in `scope_date`
 * and null here, which the history reads as that one day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table fiscal_integrity_checks add column scope_date_to date;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table fiscal_integrity_checks drop column scope_date_to');
}
