import type { Knex } from 'knex';
import { prepared } from './prepared-statements.js';

/** Rows bound for one table, written by `insertTogether` with other tables' in one statement. */
export interface TableRows {
  table: string;
  /** Every row has the same keys: the columns written; the table's other columns take their defaults. */
  rows: readonly Record<string, unknown>[];
}

/**
 * Inserts rows into several tables in one statement: one round trip instead of one per table, which
 * is most of what such an insert costs the web process and the database when it carries a single
 * row. Each table's rows travel as one JSON parameter typed by the table itself
 * (`jsonb_populate_recordset`), in a data-modifying CTE of their own, so the text is the same
 * whatever the number of rows and is planned once per connection (`name`). PostgreSQL runs the
 * CTEs of a statement in no set order: this is for rows that nothing in the statement reads back
 * and whose order between tables does not matter. A table's own rows keep the order given.
 */
export async function insertTogether(tx: Knex, name: string, inserts: readonly TableRows[]): Promise<void> {
  const written = inserts.filter((insert) => insert.rows.length > 0);
  if (written.length === 0) return;
  const ctes = written.map(({ table, rows }, i) => {
    const columns = Object.keys(rows[0]).join(', ');
    return `w${i} as (insert into ${table} (${columns}) select ${columns} from jsonb_populate_recordset(null::${table}, ?::jsonb))`;
  });
  await prepared(
    tx.raw(
      `with ${ctes.join(', ')} select 1`,
      written.map(({ rows }) => JSON.stringify(rows)),
    ),
    name,
  );
}
