import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The generated files of a credit note: `cii` (TypeCode 381), `ubl` (UBL 2.1 CreditNote),
 * `facturx` (PDF/A-3 embedding the CII) and `pdf` (readable). One row per kind; the worker
 * replaces a kind when it generates it again (same content: rendering is pure).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table credit_note_documents (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      credit_note_id uuid not null references credit_notes (id),
      kind text not null check (kind in ('pdf', 'facturx', 'ubl', 'cii')),
      content_type text not null,
      filename text not null,
      byte_size integer not null check (byte_size >= 0),
      sha256 char(64) not null,
      content bytea not null,
      created_at timestamptz not null default now(),
      unique (credit_note_id, kind)
    );
    alter table credit_note_documents alter column content set storage external;
  `);
  await isolateByTenant(knex, 'credit_note_documents');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table credit_note_documents');
}
