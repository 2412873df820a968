import type { Knex } from 'knex';
import { grantToApp, isolateByTenant } from './support/tenant-isolation.js';

/**
 * Partner and tenant onboarding (spec "Partner onboarding", "Tenant onboarding (sub-tenants)").
 * - `onboarding_sessions`: owned by the tenant that opened it (the partner, or the tenant whose
 *   sub-tenant is being onboarded). The origin's detailed status, the OAuth `state` (its SHA-256,
 *   single use), the PKCE verifier (sealed under APP_KEY), what the callback created, and the
 *   single-use authorization code (its SHA-256, its deadline, when it was spent and the key it gave).
 * - `onboarding_simulator_grants`: the accounts the onboarding simulator's authorization page
 *   created and the codes it handed out (no tenant yet: the simulator stands in for the provider).
 * - `onboarding_find_by_state`: the provider's redirect carries only `state`; this is the one read
 *   across tenants the callback page makes, with `app.caller_kind` raised to `system`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table onboarding_sessions (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      variant text not null check (variant in ('partner', 'tenant')),
      mode text not null check (mode in ('api', 'redirect', 'embedded')),
      status text not null default 'pending_superpdp' check (status in ('pending_superpdp', 'superpdp_redirected',
        'superpdp_authorized', 'superpdp_pending_review', 'active', 'superpdp_failed')),
      external_id text check (char_length(external_id) <= 255),
      callback_url text check (char_length(callback_url) <= 2048),
      client_state text check (char_length(client_state) <= 512),
      metadata jsonb not null default '{}',
      provider text check (provider in ('superpdp', 'simulator')),
      state_hash char(64) unique,
      state_used_at timestamptz,
      code_verifier_sealed text,
      created_tenant_id uuid references tenants (id),
      sub_tenant_id uuid references sub_tenants (id),
      provider_connection_id uuid references provider_connections (id),
      authorization_code_hash char(64) unique,
      authorization_code_expires_at timestamptz,
      authorization_code_used_at timestamptz,
      issued_key_id uuid references api_keys (id),
      failure_reason text check (char_length(failure_reason) <= 1000),
      expires_at timestamptz not null,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index onboarding_sessions_tenant on onboarding_sessions (tenant_id, environment, created_at);
  `);
  await isolateByTenant(knex, 'onboarding_sessions');
  await knex.raw(`
    create table onboarding_simulator_grants (
      id uuid primary key default gen_random_uuid(),
      code_hash char(64) not null unique,
      redirect_uri text not null,
      code_challenge text not null,
      company_name text not null check (char_length(company_name) <= 255),
      siret char(14) not null,
      email text not null check (char_length(email) <= 255),
      review_until timestamptz,
      code_expires_at timestamptz not null,
      code_used_at timestamptz,
      access_token_hash char(64) unique,
      created_at timestamptz not null default now()
    );

    create function onboarding_find_by_state(p_hash text)
    returns table (tenant_id uuid, session_id uuid)
    language sql stable set app.caller_kind = 'system'
    as $$ select s.tenant_id, s.id from onboarding_sessions s where s.state_hash = p_hash $$;
  `);
  await grantToApp(knex, 'onboarding_simulator_grants');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function onboarding_find_by_state(text);
    drop table onboarding_simulator_grants;
    drop table onboarding_sessions;
  `);
}
