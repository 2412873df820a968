import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

const NONE = '00000000-0000-0000-0000-000000000000';

/**
 * Accounts at the e-invoicing provider (provider-apis.md §1.2): one per tenant, sub-tenant or
 * company and environment. SuperPDP rows hold the OAuth client and tokens, sealed under APP_KEY
 * (domain/shared/secret-box.ts); `token_version` grows with every stored token so that a rotation
 * is written once. Simulator rows hold no secret. The cursors are the provider's last event and
 * inbox ids read (advanced only once a page is stored).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table provider_connections (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      sub_tenant_id uuid,
      company_id uuid references companies (id),
      environment text not null check (environment in ('sandbox', 'production')),
      provider text not null check (provider in ('superpdp', 'simulator')),
      client_id text,
      client_secret_sealed text,
      refresh_token_sealed text,
      access_token_sealed text,
      access_token_expires_at timestamptz,
      token_version integer not null default 0,
      status text not null default 'active' check (status in ('active', 'pending_review', 'failed', 'disabled')),
      events_cursor text,
      inbox_cursor text,
      last_synced_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (provider = 'simulator' or (client_id is not null and client_secret_sealed is not null))
    );
    create unique index provider_connections_owner_unique on provider_connections
      (tenant_id, environment, coalesce(sub_tenant_id, '${NONE}'::uuid), coalesce(company_id, '${NONE}'::uuid), provider);
  `);
  await isolateByTenant(knex, 'provider_connections');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table provider_connections');
}
