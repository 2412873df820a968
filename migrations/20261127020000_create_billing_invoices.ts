import type { Knex } from 'knex';
import { grantToApp, isolateByTenant } from './support/tenant-isolation.js';

const TYPES_BEFORE = `'invoice_created', 'credit_note_created', 'signature_created',
        'balance_topup', 'balance_credit', 'balance_debit'`;

/**
 * Monthly billing (docs/decisions/0053, 0054): the operator's own invoices to its tenants.
 * - `billing_invoices`: one per (tenant, month), the unique key that makes the monthly run
 *   idempotent; its figures are stored as issued (counts, prices, discount, VAT, what the balance
 *   prepaid and what remains due), with the seller and buyer as they were, and its Factur-X PDF/A-3
 *   (and the CII it embeds) once the worker rendered it.
 * - `billing_invoice_sequences`: the operator's gap-free numbering, one counter per year
 *   (`FAC-OP-2026-000001`); the row lock of the increment is held until the invoice commits.
 * - two balance movements written by the monthly run: `billing_discount` (the volume discount
 *   credited back) and `billing_vat` (the month's VAT, debited from the prepaid balance).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table balance_transactions drop constraint balance_transactions_type_check;
    alter table balance_transactions add constraint balance_transactions_type_check check (type in (
        ${TYPES_BEFORE},
        'billing_discount', 'billing_vat'
      ));

    create table billing_invoice_sequences (
      year integer primary key check (year between 2000 and 9999),
      last_number integer not null check (last_number >= 1)
    );

    create table billing_invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      period char(7) not null check (period ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      number text not null unique,
      issue_date date not null,
      currency char(3) not null default 'EUR',
      invoices_count integer not null check (invoices_count >= 0),
      signatures_count integer not null check (signatures_count >= 0),
      credit_notes_count integer not null check (credit_notes_count >= 0),
      invoices_amount numeric(14, 2) not null,
      signatures_amount numeric(14, 2) not null,
      credit_notes_amount numeric(14, 2) not null,
      gross_amount numeric(14, 2) not null,
      discount_rate numeric(5, 2) not null default 0,
      discount_amount numeric(14, 2) not null default 0,
      total_ht numeric(14, 2) not null,
      vat_rate numeric(5, 2) not null,
      total_vat numeric(14, 2) not null,
      total_ttc numeric(14, 2) not null,
      debited_amount numeric(14, 2) not null,
      vat_debited numeric(14, 2) not null default 0,
      prepaid_amount numeric(14, 2) not null,
      amount_due numeric(14, 2) not null check (amount_due >= 0),
      seller jsonb not null,
      buyer jsonb not null,
      documents_status text not null default 'pending' check (documents_status in ('pending', 'ready', 'failed')),
      documents_error text,
      pdf bytea,
      pdf_sha256 char(64),
      cii bytea,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, period),
      check (total_ttc = total_ht + total_vat),
      check (prepaid_amount = debited_amount - discount_amount + vat_debited),
      check (amount_due = total_ttc - prepaid_amount)
    );
    create index billing_invoices_tenant_idx on billing_invoices (tenant_id, period desc);
    -- The monthly run finds the tenants with usage in a month without reading every movement.
    create index balance_transactions_usage_idx on balance_transactions (created_at, tenant_id)
      where type in ('invoice_created', 'signature_created', 'credit_note_created');
  `);
  await isolateByTenant(knex, 'billing_invoices');
  // The operator's counter: no tenant's row, only the system writes it (the monthly run).
  await grantToApp(knex, 'billing_invoice_sequences');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index balance_transactions_usage_idx;
    drop table billing_invoices;
    drop table billing_invoice_sequences;
    delete from balance_transactions where type in ('billing_discount', 'billing_vat');
    alter table balance_transactions drop constraint balance_transactions_type_check;
    alter table balance_transactions add constraint balance_transactions_type_check check (type in (${TYPES_BEFORE}));
  `);
}
