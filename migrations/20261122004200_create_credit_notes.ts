import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/** Stands for "no sub-tenant" in unique keys, as in the fiscal chain's key. */
const NO_SUB_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * Credit notes and their lines (spec "Credit note"). A credit note always references its invoice,
 * in the invoice's tenant, sub-tenant and environment; it is in the fiscal ledger from creation
 * (`fiscal_entry_id`, `credit_note_issued`). The database keeps what the domain promises:
 * - issued content never changes: number, invoice, amounts, dates, parties' flag, lines;
 * - `draft` → `sent` only (irreversible), and a sent credit note is immutable (only its document
 *   state moves, the worker may finish after the send);
 * - a draft may be deleted (`deleted_at`, the row stays: the ledger entry points at it);
 * - rows are never removed, lines never change.
 * `credit_note_lines.invoice_line_number` names the invoice line credited: the remaining-creditable
 * figures are sums over it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table credit_notes (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      company_id uuid references companies (id),
      invoice_id uuid not null references invoices (id),
      credit_note_number text not null check (char_length(credit_note_number) between 1 and 50),
      type text not null check (type in ('partial', 'total')),
      status text not null default 'draft' check (status in ('draft', 'sent')),
      reason text not null check (char_length(reason) between 1 and 1000),
      issue_date date not null,
      currency char(3) not null check (currency ~ '^[A-Z]{3}$'),
      total_ht numeric(18, 2) not null check (total_ht > 0),
      total_tax numeric(18, 2) not null check (total_tax >= 0),
      total_ttc numeric(18, 2) not null,
      seller_siret char(14) not null,
      buyer_is_individual boolean not null,
      amount_charged numeric(10, 2) not null default 0 check (amount_charged >= 0),
      fiscal_entry_id uuid not null references fiscal_entries (id) deferrable initially deferred,
      documents_status text not null default 'pending' check (documents_status in ('pending', 'ready', 'failed')),
      documents_error text,
      created_by jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      sent_at timestamptz,
      deleted_at timestamptz,
      constraint credit_notes_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint credit_notes_totals check (total_ttc = total_ht + total_tax),
      constraint credit_notes_sent_at check ((status = 'sent') = (sent_at is not null)),
      constraint credit_notes_deleted_draft check (deleted_at is null or status = 'draft')
    );
    create unique index credit_notes_number_unique on credit_notes
      (tenant_id, environment, coalesce(sub_tenant_id, '${NO_SUB_TENANT}'::uuid), seller_siret, credit_note_number);
    create index credit_notes_list_idx on credit_notes (tenant_id, environment, created_at desc, id desc);
    create index credit_notes_invoice_idx on credit_notes (tenant_id, invoice_id);
    create index credit_notes_sub_tenant_idx on credit_notes (sub_tenant_id, created_at desc)
      where sub_tenant_id is not null;

    create table credit_note_lines (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      credit_note_id uuid not null references credit_notes (id),
      line_number integer not null check (line_number >= 1),
      invoice_line_number integer not null check (invoice_line_number >= 1),
      description text not null,
      quantity numeric(18, 4) not null check (quantity > 0),
      unit_price numeric(18, 4) not null check (unit_price > 0),
      tax_rate numeric(5, 2) not null check (tax_rate between 0 and 100),
      vat_category text not null check (vat_category in ('S', 'Z', 'E', 'AE', 'K', 'G', 'O')),
      vat_exemption_reason text,
      vat_exemption_reason_code text,
      unit_code text not null default 'C62',
      total_ht numeric(18, 2) not null,
      total_tax numeric(18, 2) not null,
      total_ttc numeric(18, 2) not null,
      unique (credit_note_id, line_number)
    );
    create index credit_note_lines_credit_note_idx on credit_note_lines (credit_note_id);

    create function credit_notes_guard() returns trigger language plpgsql as $$
    begin
      if (new.id, new.tenant_id, new.sub_tenant_id, new.environment, new.company_id, new.invoice_id, new.credit_note_number, new.type,
          new.reason, new.issue_date, new.currency, new.total_ht, new.total_tax, new.total_ttc, new.seller_siret,
          new.buyer_is_individual, new.amount_charged, new.fiscal_entry_id, new.created_by, new.created_at)
        is distinct from
         (old.id, old.tenant_id, old.sub_tenant_id, old.environment, old.company_id, old.invoice_id, old.credit_note_number, old.type,
          old.reason, old.issue_date, old.currency, old.total_ht, old.total_tax, old.total_ttc, old.seller_siret,
          old.buyer_is_individual, old.amount_charged, old.fiscal_entry_id, old.created_by, old.created_at)
        or (old.status = 'sent' and (new.status, new.sent_at, new.deleted_at)
              is distinct from (old.status, old.sent_at, old.deleted_at))
        or (old.deleted_at is not null and (new.status, new.deleted_at) is distinct from (old.status, old.deleted_at))
      then
        raise exception 'credit note % is issued: its content is locked, and a sent credit note is immutable', old.id
          using errcode = 'restrict_violation', constraint = 'credit_notes_immutable';
      end if;
      return new;
    end $$;
    create trigger credit_notes_guard before update on credit_notes
      for each row execute function credit_notes_guard();
    create function credit_notes_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'credit notes and their lines are never removed or rewritten: % on % is refused', tg_op, tg_table_name
        using errcode = 'restrict_violation', constraint = 'credit_notes_immutable';
    end $$;
    create trigger credit_notes_no_delete before delete on credit_notes
      for each statement execute function credit_notes_refuse_change();
    create trigger credit_notes_no_truncate before truncate on credit_notes
      for each statement execute function credit_notes_refuse_change();
    create trigger credit_note_lines_no_update_delete before update or delete on credit_note_lines
      for each statement execute function credit_notes_refuse_change();
    create trigger credit_note_lines_no_truncate before truncate on credit_note_lines
      for each statement execute function credit_notes_refuse_change();
  `);
  await isolateByTenant(knex, 'credit_notes');
  await isolateByTenant(knex, 'credit_note_lines');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table credit_note_lines;
    drop table credit_notes;
    drop function credit_notes_guard();
    drop function credit_notes_refuse_change();
  `);
}
