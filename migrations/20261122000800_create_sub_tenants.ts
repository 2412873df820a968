import type { Knex } from 'knex';

/**
 * A tenant's clients, subsidiaries or departments. Sandbox and production sub-tenants never mix:
 * each row carries the environment of the key that created it, and `external_id` (the caller's own
 * identifier) is unique per tenant and environment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table sub_tenants (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      external_id text check (length(external_id) between 1 and 255),
      name text not null,
      email text,
      siret text check (siret ~ '^[0-9]{14}$'),
      vat_number text,
      address jsonb not null default '{}'::jsonb,
      status text not null default 'active' check (status in ('active', 'suspended')),
      metadata jsonb not null default '{}'::jsonb,
      onboarding_status text not null default 'pending'
        check (onboarding_status in ('pending', 'in_progress', 'completed')),
      invoice_sequence bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index sub_tenants_external_id_unique on sub_tenants (tenant_id, environment, external_id)
      where external_id is not null;
    create index sub_tenants_tenant_idx on sub_tenants (tenant_id, environment, created_at desc, id desc);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table sub_tenants');
}
