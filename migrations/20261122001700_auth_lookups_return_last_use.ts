import type { Knex } from 'knex';

/**
 * The credential lookups also return when and from where the credential was last used, so that
 * authentication records a new use (step 8) only when the stored one is over a minute old or from
 * another IP, without a write round trip on every request.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function auth_find_api_key(text, text);
    create function auth_find_api_key(p_prefix text, p_hash text)
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

    drop function auth_find_access_token(text);
    create function auth_find_access_token(p_hash text)
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

export async function down(): Promise<void> {
  // The earlier definitions differ only by the two extra columns, which callers may ignore.
}
