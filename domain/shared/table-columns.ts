import type { Knex } from 'knex';

const known = new Map<string, Promise<string>>();

/**
 * The columns of a table as this process first saw them, quoted and comma-separated, for the
 * result list of a prepared statement (prepared-statements.ts) where `*` would do: a column a
 * later migration adds is left out rather than changing the statement's result and failing it in
 * the processes still running the previous release. Read once per process from the catalog.
 */
export function tableColumns(tx: Knex, table: string): Promise<string> {
  let columns = known.get(table);
  if (!columns) {
    columns = tx
      .raw<{ rows: { attname: string }[] }>(
        `select attname from pg_attribute
          where attrelid = ?::regclass and attnum > 0 and not attisdropped
          order by attnum`,
        [table],
      )
      .then(({ rows }) => rows.map((r) => `"${r.attname}"`).join(', '));
    columns.catch(() => known.delete(table));
    known.set(table, columns);
  }
  return columns;
}
