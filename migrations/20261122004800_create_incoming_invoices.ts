import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/** Stands for "no sub-tenant" in unique keys, as in the invoices' keys. */
const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * Supplier invoices received: synchronised from the e-invoicing provider's inbox
 * (`source = provider`, with its `pdp_id`) or registered by hand (`manual`). The original file is
 * kept as received, with its SHA-256; the parsed fields are what the file says (null when it could
 * not be read: `parse_error` says why, and the file is still kept). The same invoice arriving twice
 * is recognised by any of three keys, each unique per owner, environment and sub-tenant: the
 * provider's id, the file's hash, and the seller's SIRET with the invoice number (French numbering
 * is unique per seller). Decisions (accept, reject, dispute, mark-paid) fill the decision columns.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table incoming_invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      source text not null check (source in ('provider', 'manual')),
      provider_account_id text,
      pdp_id text check (char_length(pdp_id) between 1 and 64),
      status text not null default 'received'
        check (status in ('received', 'accepted', 'rejected', 'disputed', 'paid')),
      format text check (format in ('ubl', 'cii', 'facturx')),
      parse_error text,
      type_code text,
      invoice_number text,
      issue_date date,
      due_date date,
      currency text,
      seller_name text,
      seller_siret text,
      seller_vat_number text,
      seller_country text,
      buyer_name text,
      buyer_siret text,
      buyer_vat_number text,
      buyer_country text,
      total_ht numeric(18, 2),
      total_tax numeric(18, 2),
      total_ttc numeric(18, 2),
      amount_due numeric(18, 2),
      lines jsonb not null default '[]' check (jsonb_typeof(lines) = 'array'),
      filename text not null,
      content_type text not null,
      byte_size integer not null check (byte_size > 0),
      content_sha256 char(64) not null check (content_sha256 ~ '^[0-9a-f]{64}$'),
      content bytea not null,
      reason_code text,
      reason_text text,
      payment_reference text,
      payment_means_code text,
      decided_at timestamptz,
      decided_by jsonb,
      received_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint incoming_invoices_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment)
    );
    alter table incoming_invoices alter column content set storage external;
    create unique index incoming_invoices_pdp_id_unique on incoming_invoices
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), pdp_id) where pdp_id is not null;
    create unique index incoming_invoices_sha256_unique on incoming_invoices
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), content_sha256);
    create unique index incoming_invoices_number_unique on incoming_invoices
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), seller_siret, invoice_number)
      where seller_siret is not null and invoice_number is not null;
    create index incoming_invoices_list_idx on incoming_invoices (tenant_id, environment, created_at desc, id desc);
    create index incoming_invoices_sub_tenant_idx on incoming_invoices (tenant_id, sub_tenant_id, created_at desc)
      where sub_tenant_id is not null;
  `);
  await isolateByTenant(knex, 'incoming_invoices');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table incoming_invoices');
}
