import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Quotes (devis; spec "Quote", origin-notes item 6, docs/decisions/0073 and 0074).
 * - `quotes`: one per quote of a sub-tenant, its body kept as given (`content`: parties, lines and
 *   options, the shape of a tenant invoice body) with its totals; the status, the buyer's answer
 *   (`signature`: name, IP, user agent, time), the public link (its token sealed, its SHA-256 the
 *   lookup key, its expiry and revocation).
 * - `quote_sequences`: the gap-free `DEV-YYYY-NNNN` counter of a sub-tenant per year; the row lock of
 *   the increment is held until the quote commits.
 * - `quote_invoices`: the invoices a quote was converted into (deposits, at most one balance), with
 *   the amount each took at each VAT rate of the quote (`vat_split`).
 * - `quote_audit_entries`: the quote's hash-chained log (`chain_hash` = SHA-256 of
 *   `previous_chain_hash` + SHA-256 of the canonical entry); append-only.
 * - `quote_find_by_token`: the public page knows only its token's hash, not the tenant; the one
 *   read across tenants it makes, with `app.caller_kind` raised to `system` for its duration.
 * Also widens invoices with the document type code (380, 386) and the preceding invoices a balance
 * invoice references (EN 16931 BT-3, BG-3), both locked once written, as the other issued fields.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table quote_sequences (
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      sub_tenant_id uuid not null,
      year integer not null check (year between 2000 and 9999),
      last_number integer not null check (last_number >= 1),
      primary key (tenant_id, environment, sub_tenant_id, year)
    );

    create table quotes (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid not null,
      environment text not null check (environment in ('sandbox', 'production')),
      quote_number text not null check (quote_number ~ '^DEV-[0-9]{4}-[0-9]{4,}$'),
      status text not null default 'draft' check (status in
        ('draft', 'sent', 'viewed', 'accepted', 'refused', 'expired', 'cancelled', 'converted')),
      status_reason text check (char_length(status_reason) <= 1000),
      issue_date date not null,
      validity_date date not null check (validity_date >= issue_date),
      currency char(3) not null,
      buyer_name text not null,
      content jsonb not null,
      total_ht numeric(18, 2) not null check (total_ht > 0),
      total_tax numeric(18, 2) not null check (total_tax >= 0),
      total_ttc numeric(18, 2) not null,
      signature jsonb,
      public_token_hash char(64) unique,
      public_token_sealed text,
      public_link_expires_at timestamptz,
      public_link_revoked_at timestamptz,
      duplicated_from uuid references quotes (id),
      created_by jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      sent_at timestamptz,
      viewed_at timestamptz,
      answered_at timestamptz,
      cancelled_at timestamptz,
      converted_at timestamptz,
      constraint quotes_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint quotes_totals check (total_ttc = total_ht + total_tax),
      constraint quotes_accepted_signed check (status not in ('accepted', 'converted') or signature is not null)
    );
    create unique index quotes_number_unique on quotes (tenant_id, environment, sub_tenant_id, quote_number);
    create index quotes_list_idx on quotes (tenant_id, environment, sub_tenant_id, created_at desc, id desc);
    create index quotes_admin_idx on quotes (created_at desc, id desc);

    create table quote_invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      quote_id uuid not null references quotes (id),
      invoice_id uuid not null unique references invoices (id),
      kind text not null check (kind in ('deposit', 'balance')),
      total_ht numeric(18, 2) not null,
      total_ttc numeric(18, 2) not null,
      vat_split jsonb not null default '[]',
      created_at timestamptz not null default now()
    );
    create index quote_invoices_quote_idx on quote_invoices (quote_id, created_at);
    create unique index quote_invoices_one_balance on quote_invoices (quote_id) where kind = 'balance';

    create table quote_audit_entries (
      id bigserial primary key,
      tenant_id uuid not null references tenants (id),
      quote_id uuid not null references quotes (id),
      sequence_number integer not null check (sequence_number >= 1),
      action text not null,
      details jsonb not null,
      actor jsonb not null default '{}',
      actor_ip text,
      canonical_data text not null,
      previous_chain_hash char(64) not null,
      chain_hash char(64) not null,
      created_at timestamptz not null,
      unique (quote_id, sequence_number)
    );
    create index quote_audit_entries_created_idx on quote_audit_entries (created_at, id);

    create function quote_audit_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'the quote audit log is append-only: % on % is refused', tg_op, tg_table_name
        using errcode = 'restrict_violation', constraint = 'quote_audit_append_only';
    end $$;
    create trigger quote_audit_no_update_delete before update or delete on quote_audit_entries
      for each statement execute function quote_audit_refuse_change();
    create trigger quote_audit_no_truncate before truncate on quote_audit_entries
      for each statement execute function quote_audit_refuse_change();
    create trigger quote_invoices_no_update_delete before update or delete on quote_invoices
      for each statement execute function quote_audit_refuse_change();

    create function quote_find_by_token(p_hash text)
    returns table (tenant_id uuid, quote_id uuid)
    language sql stable set app.caller_kind = 'system'
    as $$
      select q.tenant_id, q.id from quotes q where q.public_token_hash = p_hash
    $$;

    alter table invoices
      add column type_code text not null default '380' check (type_code in ('380', '386')),
      add column preceding_invoices jsonb not null default '[]';
    create function invoices_lock_document_kind() returns trigger language plpgsql as $$
    begin
      if (new.type_code, new.preceding_invoices) is distinct from (old.type_code, old.preceding_invoices) then
        raise exception 'invoice %: its type code and preceding invoices are issued content', old.id
          using errcode = 'restrict_violation', constraint = 'invoices_fiscal_fields_locked';
      end if;
      return new;
    end $$;
    create trigger invoices_lock_document_kind before update on invoices
      for each row execute function invoices_lock_document_kind();
  `);
  await isolateByTenant(knex, 'quote_sequences');
  await isolateByTenant(knex, 'quotes');
  await isolateByTenant(knex, 'quote_invoices');
  await isolateByTenant(knex, 'quote_audit_entries');
  await knex.raw(`grant usage on sequence quote_audit_entries_id_seq to ${APP_ROLE}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger invoices_lock_document_kind on invoices;
    drop function invoices_lock_document_kind();
    alter table invoices drop column type_code, drop column preceding_invoices;
    drop function quote_find_by_token(text);
    drop table quote_audit_entries;
    drop table quote_invoices;
    drop table quotes;
    drop table quote_sequences;
    drop function quote_audit_refuse_change();
  `);
}
