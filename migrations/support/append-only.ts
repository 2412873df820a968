import type { Knex } from 'knex';

/**
 * Makes a table append-only for every role: UPDATE, DELETE and TRUNCATE are refused by
 * statement-level triggers (`<table>_refuse_change`), whether or not a row would be touched.
 */
export async function refuseChanges(knex: Knex, table: string): Promise<void> {
  await knex.raw(`
    create function ${table}_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception '${table} is append-only: % is refused', tg_op using errcode = 'restrict_violation';
    end $$;
    create trigger ${table}_no_update_delete before update or delete on ${table}
      for each statement execute function ${table}_refuse_change();
    create trigger ${table}_no_truncate before truncate on ${table}
      for each statement execute function ${table}_refuse_change();
  `);
}
