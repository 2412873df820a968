import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Signature requests (spec "Signature request"), their signers and their documents.
 * - `signature_requests`: one request per document, in its owner's tenant, sub-tenant and
 *   environment; `pending` until every signer signed (`completed`), one refused (`refused`), its
 *   `expires_at` passed (`expired`) or its owner cancelled it (`cancelled`). The provider columns are
 *   filled once a signature provider carries the request (`callback_token_hash`: the SHA-256 of the
 *   opaque token of its callback URL, never the token).
 * - `signature_signers`: the signers in their order; `signing_token_hash` is the SHA-256 of the
 *   signer's signing-page token (the token itself is never stored).
 * - `signature_documents`: the uploaded `original`, and later the `signed` PDF and the `proof` file.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table signature_requests (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      environment text not null check (environment in ('sandbox', 'production')),
      external_id text check (char_length(external_id) <= 255),
      title text not null check (char_length(title) between 1 and 255),
      description text,
      document_name text not null check (char_length(document_name) between 1 and 255),
      document_size integer not null check (document_size > 0),
      document_sha256 char(64) not null,
      page_count integer not null check (page_count >= 1),
      status text not null default 'pending'
        check (status in ('pending', 'completed', 'refused', 'expired', 'cancelled')),
      amount_charged numeric(10, 2) not null default 0 check (amount_charged >= 0),
      ui_config jsonb,
      signature_options jsonb,
      positions jsonb not null default '[]',
      redirect_complete_url text,
      redirect_cancel_url text,
      archive_enabled boolean,
      expires_at timestamptz not null,
      refusal_reason text,
      provider text,
      provider_id text,
      callback_token_hash char(64),
      created_by jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz,
      cancelled_at timestamptz,
      last_reminded_at timestamptz,
      constraint signature_requests_sub_tenant_fk foreign key (sub_tenant_id, tenant_id, environment)
        references sub_tenants (id, tenant_id, environment),
      constraint signature_requests_completed_at check ((status = 'completed') = (completed_at is not null))
    );
    create index signature_requests_list_idx on signature_requests (tenant_id, environment, created_at desc, id desc);
    create index signature_requests_due_idx on signature_requests (expires_at) where status = 'pending';
    create unique index signature_requests_provider_idx on signature_requests (provider, provider_id)
      where provider_id is not null;

    create table signature_signers (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      signature_request_id uuid not null references signature_requests (id),
      ordinal integer not null check (ordinal between 1 and 10),
      first_name text not null,
      last_name text not null,
      email text,
      phone text,
      auth_method text not null check (auth_method in ('email', 'sms', 'both')),
      message text check (char_length(message) <= 500),
      status text not null default 'pending' check (status in ('pending', 'signed', 'refused')),
      signed_at timestamptz,
      refused_at timestamptz,
      signing_token_hash char(64) not null unique,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (signature_request_id, ordinal),
      constraint signature_signers_contact check (email is not null or phone is not null),
      constraint signature_signers_signed_at check ((status = 'signed') = (signed_at is not null))
    );

    create table signature_documents (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      signature_request_id uuid not null references signature_requests (id),
      kind text not null check (kind in ('original', 'signed', 'proof')),
      filename text not null,
      byte_size integer not null check (byte_size >= 0),
      sha256 char(64) not null,
      content bytea not null,
      created_at timestamptz not null default now(),
      unique (signature_request_id, kind)
    );
    alter table signature_documents alter column content set storage external;
  `);
  await isolateByTenant(knex, 'signature_requests');
  await isolateByTenant(knex, 'signature_signers');
  await isolateByTenant(knex, 'signature_documents');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table signature_documents;
    drop table signature_signers;
    drop table signature_requests;
  `);
}
