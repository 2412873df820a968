import type { Knex } from 'knex';

/**
 * The credential lookups run on every authenticated request. As SQL functions with a SET clause
 * they cannot be inlined and PostgreSQL plans their query on every call; as PL/pgSQL they keep the
 * plan for the session. Same signature, same query, same `app.caller_kind` scope.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function auth_find_api_key(p_prefix text, p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, company_id uuid, sub_tenant_id uuid, kind text,
      environment text, scopes text[], status text, expires_at timestamptz,
      tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], kyc_completed boolean,
      last_used_at timestamptz, last_used_ip text
    )
    language plpgsql stable set app.caller_kind = 'system'
    as $$
    begin
      return query
      select k.id, k.tenant_id, k.user_id, k.company_id, k.sub_tenant_id, k.kind, k.environment, k.scopes,
             k.status, k.expires_at, t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active,
             coalesce(u.permissions, '{}'),
             exists (
               select 1 from companies c
               where c.tenant_id = k.tenant_id and c.deleted_at is null and c.kyc_status = 'completed'
                 and (k.company_id is null or c.id = k.company_id)
             ),
             k.last_used_at, k.last_used_ip
      from api_keys k
      join tenants t on t.id = k.tenant_id
      left join users u on u.id = k.user_id
      where k.key_prefix = p_prefix and k.key_hash = p_hash;
    end
    $$;

    create or replace function auth_find_access_token(p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, kind text, environment text, expires_at timestamptz,
      revoked_at timestamptz, tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], last_used_at timestamptz, last_used_ip text
    )
    language plpgsql stable set app.caller_kind = 'system'
    as $$
    begin
      return query
      select a.id, a.tenant_id, a.user_id, a.kind, a.environment, a.expires_at, a.revoked_at,
             t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active, coalesce(u.permissions, '{}'),
             a.last_used_at, a.last_used_ip
      from access_tokens a
      join tenants t on t.id = a.tenant_id
      left join users u on u.id = a.user_id
      where a.token_hash = p_hash;
    end
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function auth_find_api_key(p_prefix text, p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, company_id uuid, sub_tenant_id uuid, kind text,
      environment text, scopes text[], status text, expires_at timestamptz,
      tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], kyc_completed boolean,
      last_used_at timestamptz, last_used_ip text
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
             ),
             k.last_used_at, k.last_used_ip
      from api_keys k
      join tenants t on t.id = k.tenant_id
      left join users u on u.id = k.user_id
      where k.key_prefix = p_prefix and k.key_hash = p_hash
    $$;

    create or replace function auth_find_access_token(p_hash text)
    returns table (
      id uuid, tenant_id uuid, user_id uuid, kind text, environment text, expires_at timestamptz,
      revoked_at timestamptz, tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], last_used_at timestamptz, last_used_ip text
    )
    language sql stable set app.caller_kind = 'system'
    as $$
      select a.id, a.tenant_id, a.user_id, a.kind, a.environment, a.expires_at, a.revoked_at,
             t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active, coalesce(u.permissions, '{}'),
             a.last_used_at, a.last_used_ip
      from access_tokens a
      join tenants t on t.id = a.tenant_id
      left join users u on u.id = a.user_id
      where a.token_hash = p_hash
    $$;
  `);
}
