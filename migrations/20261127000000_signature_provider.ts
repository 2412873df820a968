import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';

/**
 * The signature provider (Openapi EU-SES) that carries production requests.
 * - `signature_provider_config`: the one account the operator configures (`/v1/admin/openapi/config`):
 *   the account e-mail, its API key and the bearer token the service uses, both sealed; whether the
 *   provider's test hosts are used; the last verification. Only the system sees it.
 * - `signature_provider_tokens`: tokens minted through the admin routes, with their refresh tokens
 *   (sealed), which the provider shows only once. Only the system sees it.
 * - `signature_requests` gains the provider's state and when the request was handed over (an attempt
 *   whose answer was lost is looked up before a second one is made); `signature_signers` the
 *   provider's signer id, state and signing link (sealed: it opens the signing session).
 * - `signature_find_by_provider`: a callback names the provider's id only, not the tenant;
 *   `signature_provider_configured`: whether a tenant's new production request goes to the provider.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table signature_provider_config (
      id smallint primary key default 1 check (id = 1),
      provider text not null default 'openapi' check (provider = 'openapi'),
      account_email text not null check (char_length(account_email) <= 320),
      api_key_sealed text not null,
      test_mode boolean not null default false,
      token_sealed text,
      token_expires_at timestamptz,
      token_scopes text[] not null default '{}',
      verified_at timestamptz,
      verification jsonb,
      updated_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table signature_provider_tokens (
      id text primary key,
      token_sealed text not null,
      refresh_token_sealed text,
      name text,
      scopes text[] not null default '{}',
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    alter table signature_requests
      add column provider_attempted_at timestamptz,
      add column provider_submitted_at timestamptz,
      add column provider_state text,
      add column provider_error text,
      add column provider_synced_at timestamptz,
      add constraint signature_requests_provider check (provider is null or provider in ('simulator', 'openapi'));
    create index signature_requests_provider_pending_idx on signature_requests (provider_synced_at)
      where status = 'pending' and provider = 'openapi';

    alter table signature_signers
      add column provider_signer_id text,
      add column provider_state text,
      add column provider_url_sealed text;

    create function signature_provider_configured()
    returns boolean
    language sql stable set app.caller_kind = 'system'
    as $$ select exists (select 1 from signature_provider_config) $$;

    create function signature_find_by_provider(p_provider text, p_id text)
    returns table (tenant_id uuid, signature_request_id uuid)
    language sql stable set app.caller_kind = 'system'
    as $$
      select r.tenant_id, r.id from signature_requests r where r.provider = p_provider and r.provider_id = p_id
    $$;
  `);
  for (const table of ['signature_provider_config', 'signature_provider_tokens']) {
    await knex.raw(`
      alter table ${table} enable row level security;
      alter table ${table} force row level security;
      create policy ${table}_system_only on ${table} using (app_is_system()) with check (app_is_system());
      grant select, insert, update, delete on ${table} to ${APP_ROLE};
    `);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function signature_find_by_provider(text, text);
    drop function signature_provider_configured();
    drop index signature_requests_provider_pending_idx;
    alter table signature_signers drop column provider_signer_id, drop column provider_state, drop column provider_url_sealed;
    alter table signature_requests drop constraint signature_requests_provider,
      drop column provider_attempted_at, drop column provider_submitted_at, drop column provider_state,
      drop column provider_error, drop column provider_synced_at;
    drop table signature_provider_tokens;
    drop table signature_provider_config;
  `);
}
