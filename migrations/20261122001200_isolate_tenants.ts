import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { grantToApp, isolateByTenant } from './support/tenant-isolation.js';

const TENANT_TABLES = [
  'users',
  'api_keys',
  'balances',
  'balance_transactions',
  'events',
  'sub_tenants',
  'companies',
  'access_tokens',
  'password_resets',
];

/**
 * Tenant isolation in the database. The application connects as the owner (which runs migrations)
 * and switches to `einvoice_app` on every connection: a role that owns nothing and cannot bypass
 * row-level security. Every tenant-owned table gets a forced, fail-closed policy on the
 * per-transaction setting `app.tenant_id`.
 *
 * Credentials are looked up before the tenant is known; the `auth_*` functions below are the only
 * reads across tenants, each by a hash or an e-mail, with `app.caller_kind` raised to `system` for
 * the duration of the function only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    do $$
    begin
      create role ${APP_ROLE} nologin;
    exception when duplicate_object or unique_violation then null;
    end $$;
    do $$
    begin
      execute format('grant ${APP_ROLE} to %I', current_user);
    exception when others then null;
    end $$;
    grant usage on schema public to ${APP_ROLE};

    create function app_tenant_id() returns uuid language sql stable parallel safe
      as $$ select nullif(current_setting('app.tenant_id', true), '')::uuid $$;
    create function app_is_system() returns boolean language sql stable parallel safe
      as $$ select coalesce(current_setting('app.caller_kind', true), '') = 'system' $$;
  `);

  await isolateByTenant(knex, 'tenants', 'id');
  for (const table of TENANT_TABLES) await isolateByTenant(knex, table);
  await knex.raw(`
    alter table idempotency_keys enable row level security;
    alter table idempotency_keys force row level security;
    create policy idempotency_keys_owner on idempotency_keys
      using (tenant_id is not distinct from app_tenant_id() or app_is_system())
      with check (tenant_id is not distinct from app_tenant_id() or app_is_system());
    grant select, insert, update, delete on idempotency_keys to ${APP_ROLE};
  `);
  await grantToApp(knex, 'rate_limits');

  await knex.raw(`
    create function auth_find_api_key(p_prefix text, p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, company_id uuid, sub_tenant_id uuid, kind text,
      environment text, scopes text[], status text, expires_at timestamptz,
      tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], kyc_completed boolean
    )
    language sql stable set app.caller_kind = 'system'
    as $$
      select k.id, k.tenant_id, k.user_id, k.company_id, k.sub_tenant_id, k.kind, k.environment, k.scopes,
             k.status, k.expires_at, t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active,
             coalesce(u.permissions, '{}'),
             exists (
               select 1 from companies c
               where c.tenant_id = k.tenant_id and c.deleted_at is null and c.kyc_status = 'completed'
                 and (k.company_id is null or c.id = k.company_id)
             )
      from api_keys k
      join tenants t on t.id = k.tenant_id
      left join users u on u.id = k.user_id
      where k.key_prefix = p_prefix and k.key_hash = p_hash
    $$;

    create function auth_touch_api_key(p_id uuid, p_ip text) returns void
    language sql volatile set app.caller_kind = 'system'
    as $$
      update api_keys set last_used_at = now(), last_used_ip = p_ip
      where id = p_id
        and (last_used_at is null or last_used_at < now() - interval '1 minute' or last_used_ip is distinct from p_ip)
    $$;

    create function auth_find_access_token(p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, kind text, environment text, expires_at timestamptz,
      revoked_at timestamptz, tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[]
    )
    language sql stable set app.caller_kind = 'system'
    as $$
      select a.id, a.tenant_id, a.user_id, a.kind, a.environment, a.expires_at, a.revoked_at,
             t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active, coalesce(u.permissions, '{}')
      from access_tokens a
      join tenants t on t.id = a.tenant_id
      left join users u on u.id = a.user_id
      where a.token_hash = p_hash
    $$;

    create function auth_touch_access_token(p_id uuid, p_ip text) returns void
    language sql volatile set app.caller_kind = 'system'
    as $$
      update access_tokens set last_used_at = now(), last_used_ip = p_ip
      where id = p_id
        and (last_used_at is null or last_used_at < now() - interval '1 minute' or last_used_ip is distinct from p_ip)
    $$;

    create function auth_find_user_by_email(p_email text)
    returns table (id uuid, tenant_id uuid, password_hash text, is_active boolean, google_id text)
    language sql stable set app.caller_kind = 'system'
    as $$ select id, tenant_id, password_hash, is_active, google_id from users where lower(email) = lower(p_email) $$;

    create function auth_find_tenant_by_email(p_email text)
    returns table (id uuid, password_hash text, is_active boolean)
    language sql stable set app.caller_kind = 'system'
    as $$ select id, password_hash, is_active from tenants where kind = 'platform' and lower(email) = lower(p_email) $$;

    create function auth_find_password_reset(p_hash text)
    returns table (id uuid, tenant_id uuid, user_id uuid, expires_at timestamptz, used_at timestamptz)
    language sql stable set app.caller_kind = 'system'
    as $$ select id, tenant_id, user_id, expires_at, used_at from password_resets where token_hash = p_hash $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function auth_find_password_reset(text);
    drop function auth_find_tenant_by_email(text);
    drop function auth_find_user_by_email(text);
    drop function auth_touch_access_token(uuid, text);
    drop function auth_find_access_token(text);
    drop function auth_touch_api_key(uuid, text);
    drop function auth_find_api_key(text, text);
  `);
  for (const table of ['tenants', ...TENANT_TABLES, 'idempotency_keys']) {
    await knex.raw(
      `drop policy if exists ${table}_tenant_isolation on ${table}; alter table ${table} disable row level security`,
    );
  }
  await knex.raw(`
    drop policy if exists idempotency_keys_owner on idempotency_keys;
    drop function app_is_system();
    drop function app_tenant_id();
    revoke all on all tables in schema public from ${APP_ROLE};
    revoke usage on schema public from ${APP_ROLE};
  `);
}
