import type { Knex } from 'knex';

/**
 * A tenant is the isolation unit: a platform integrating the service (`kind = platform`, the
 * specification's Tenant) or the workspace of a dashboard user (`kind = workspace`). Every
 * tenant-owned row carries its `tenant_id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table tenants (
      id uuid primary key default gen_random_uuid(),
      parent_tenant_id uuid references tenants (id),
      kind text not null check (kind in ('platform', 'workspace')),
      name text not null,
      slug text not null unique,
      legal_name text,
      siret text check (siret ~ '^[0-9]{14}$'),
      vat_number text,
      email text,
      billing_email text,
      technical_email text,
      password_hash text,
      kyb_status text not null default 'pending'
        check (kyb_status in ('pending', 'documents_submitted', 'under_review', 'verified', 'rejected')),
      kyb_verified_at timestamptz,
      webhook_url text,
      webhook_secret_encrypted text,
      is_partner boolean not null default false,
      is_active boolean not null default true,
      settings jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index tenants_email_unique on tenants (lower(email)) where email is not null;
    create index tenants_parent_idx on tenants (parent_tenant_id) where parent_tenant_id is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table tenants');
}
