import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/** Stands for "no sub-tenant" in unique keys, as in the fiscal chain's key. */
const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * Invoices and their lines (spec "Invoice (creation body)"). Once an invoice is in the fiscal ledger
 * (`fiscal_entry_id` set, which creation does in the same transaction) its fiscal fields are locked:
 * the database refuses to change them, and refuses any change to a line, whoever writes. Only the
 * lifecycle columns (status, messages, provider ids, document state), `metadata` and
 * `archive_enabled` move afterwards. Amounts are `numeric`; quantities and unit prices keep 4 places.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      company_id uuid references companies (id),
      external_id text check (char_length(external_id) between 1 and 255),
      invoice_number text not null check (char_length(invoice_number) between 1 and 50),
      direction text not null check (direction in ('outgoing', 'incoming')),
      output_format text not null check (output_format in ('facturx', 'ubl', 'cii')),
      profile text not null default 'en16931'
        check (profile in ('minimum', 'basicwl', 'basic', 'en16931', 'extended')),
      status text not null default 'draft' check (status in
        ('draft', 'validated', 'submitted', 'transmitted', 'processing', 'completed', 'failed', 'paid', 'rejected', 'deleted')),
      status_message text,
      issue_date date not null,
      due_date date check (due_date >= issue_date),
      currency char(3) not null default 'EUR' check (currency ~ '^[A-Z]{3}$'),
      total_ht numeric(18, 2) not null,
      total_tax numeric(18, 2) not null,
      total_ttc numeric(18, 2) not null,
      seller_siret char(14) not null,
      seller_name text not null,
      seller_vat_number text,
      seller_country char(2) not null,
      seller_address jsonb not null,
      buyer_siret char(14),
      buyer_name text not null,
      buyer_country char(2) not null,
      buyer_vat_number text,
      buyer_legal_id text,
      buyer_address jsonb not null,
      buyer_is_individual boolean not null default false,
      archive_enabled boolean not null default false,
      metadata jsonb not null default '{}' check (jsonb_typeof(metadata) = 'object'),
      amount_charged numeric(10, 2) not null default 0 check (amount_charged >= 0),
      -- Deferred: creation appends the ledger entry last, just before commit, to hold the chain's lock briefly.
      fiscal_entry_id uuid references fiscal_entries (id) deferrable initially deferred,
      documents_status text not null default 'pending' check (documents_status in ('pending', 'ready', 'failed')),
      documents_error text,
      created_by jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz,
      constraint invoices_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint invoices_totals check (total_ttc = total_ht + total_tax)
    );
    create unique index invoices_external_id_unique on invoices
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), external_id)
      where external_id is not null;
    create unique index invoices_number_unique on invoices
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), seller_siret, invoice_number);
    create index invoices_list_idx on invoices (tenant_id, environment, created_at desc, id desc);
    create index invoices_sub_tenant_idx on invoices (sub_tenant_id, created_at desc) where sub_tenant_id is not null;
    create index invoices_company_idx on invoices (company_id) where company_id is not null;

    create table invoice_lines (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      invoice_id uuid not null references invoices (id),
      line_number integer not null check (line_number >= 1),
      description text not null,
      quantity numeric(18, 4) not null check (quantity >= 0.001),
      unit_price numeric(18, 4) not null check (unit_price >= 0),
      tax_rate numeric(5, 2) not null check (tax_rate between 0 and 100),
      vat_category text not null check (vat_category in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
      vat_exemption_reason text,
      vat_exemption_reason_code text,
      unit_code text not null default 'C62',
      total_ht numeric(18, 2) not null,
      total_tax numeric(18, 2) not null,
      total_ttc numeric(18, 2) not null,
      unique (invoice_id, line_number)
    );

    create function invoices_lock_fiscal_fields() returns trigger language plpgsql as $$
    begin
      if old.fiscal_entry_id is not null and (
        new.fiscal_entry_id is distinct from old.fiscal_entry_id
        or (new.tenant_id, new.sub_tenant_id, new.environment, new.invoice_number, new.direction, new.issue_date,
            new.due_date, new.currency, new.total_ht, new.total_tax, new.total_ttc, new.seller_siret, new.seller_name,
            new.seller_vat_number, new.seller_country, new.seller_address, new.buyer_siret, new.buyer_name,
            new.buyer_country, new.buyer_vat_number, new.buyer_legal_id, new.buyer_address, new.buyer_is_individual,
            new.amount_charged, new.created_at)
          is distinct from
           (old.tenant_id, old.sub_tenant_id, old.environment, old.invoice_number, old.direction, old.issue_date,
            old.due_date, old.currency, old.total_ht, old.total_tax, old.total_ttc, old.seller_siret, old.seller_name,
            old.seller_vat_number, old.seller_country, old.seller_address, old.buyer_siret, old.buyer_name,
            old.buyer_country, old.buyer_vat_number, old.buyer_legal_id, old.buyer_address, old.buyer_is_individual,
            old.amount_charged, old.created_at)
      ) then
        raise exception 'invoice % is in the fiscal ledger: its fiscal fields are locked', old.id
          using errcode = 'restrict_violation', constraint = 'invoices_fiscal_fields_locked';
      end if;
      return new;
    end $$;
    create trigger invoices_lock_fiscal_fields before update on invoices
      for each row execute function invoices_lock_fiscal_fields();

    create function invoice_lines_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'invoice lines are immutable: % is refused', tg_op
        using errcode = 'restrict_violation', constraint = 'invoices_fiscal_fields_locked';
    end $$;
    create trigger invoice_lines_no_update_delete before update or delete on invoice_lines
      for each statement execute function invoice_lines_refuse_change();
    create trigger invoice_lines_no_truncate before truncate on invoice_lines
      for each statement execute function invoice_lines_refuse_change();
    create function invoices_refuse_delete() returns trigger language plpgsql as $$
    begin
      raise exception 'invoices are never removed: % is refused (delete a draft through the API: it becomes deleted)', tg_op
        using errcode = 'restrict_violation', constraint = 'invoices_fiscal_fields_locked';
    end $$;
    create trigger invoices_no_delete before delete on invoices
      for each statement execute function invoices_refuse_delete();
    create trigger invoices_no_truncate before truncate on invoices
      for each statement execute function invoices_refuse_delete();
  `);
  await isolateByTenant(knex, 'invoices');
  await isolateByTenant(knex, 'invoice_lines');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table invoice_lines;
    drop table invoices;
    drop function invoice_lines_refuse_change();
    drop function invoices_lock_fiscal_fields();
    drop function invoices_refuse_delete();
  `);
}
