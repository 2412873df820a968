import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The files of an invoice: the caller's `original_file`, and what the document worker generates
 * (`pdf` readable copy, `facturx`, `ubl`, `cii`). One row per kind; regenerating replaces the
 * generated kinds, never the original. Kept in PostgreSQL so that web and worker processes share
 * nothing else (an object store can take over behind the same store functions).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table invoice_documents (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      invoice_id uuid not null references invoices (id),
      kind text not null check (kind in ('original', 'pdf', 'facturx', 'ubl', 'cii')),
      content_type text not null,
      filename text not null,
      byte_size integer not null check (byte_size >= 0),
      sha256 char(64) not null,
      content bytea not null,
      created_at timestamptz not null default now(),
      unique (invoice_id, kind)
    );
    alter table invoice_documents alter column content set storage external;
  `);
  await isolateByTenant(knex, 'invoice_documents');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table invoice_documents');
}
