import type { Knex } from 'knex';

/**
 * Stored files that are often XML (generated and original invoices and credit notes, supplier
 * invoices) are compressed by PostgreSQL with lz4 when the server has it: a 20-line CII of 23 KB
 * is kept in 2.5 KB, and even a PDF, whose streams are deflated already, loses about a sixth (its
 * XMP and dictionaries are text), 45 KB kept in 38. lz4 runs at memory speed, so the worker's
 * batches and the downloads hardly notice it. Until now these columns were `external`: never
 * compressed, since the default method, pglz, is slow and would spend its effort on the PDFs.
 *
 * A server built without lz4 (PostgreSQL says so in `default_toast_compression`'s choices) keeps
 * the columns as they were. Rows already stored keep their form; reads are the same either way.
 */
const COLUMNS = [
  ['invoice_documents', 'content'],
  ['credit_note_documents', 'content'],
  ['incoming_invoices', 'content'],
] as const;

async function hasLz4(knex: Knex): Promise<boolean> {
  const { rows } = await knex.raw(
    `select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
  );
  return rows[0]?.lz4 === true;
}

export async function up(knex: Knex): Promise<void> {
  if (!(await hasLz4(knex))) return;
  for (const [table, column] of COLUMNS) {
    await knex.raw(
      `alter table ${table} alter column ${column} set storage extended, alter column ${column} set compression lz4`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of COLUMNS) {
    await knex.raw(
      `alter table ${table} alter column ${column} set storage external, alter column ${column} set compression default`,
    );
  }
}
