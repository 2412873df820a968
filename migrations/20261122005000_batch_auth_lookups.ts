import type { Knex } from 'knex';

/**
 * Credential lookups for many requests in one statement: the web process batches the lookups of
 * concurrent requests (domain/auth/credential-lookups.ts), so a burst of calls costs one round trip
 * instead of one each. Same columns and `app.caller_kind` scope as `auth_find_api_key` and
 * `auth_find_access_token`, plus the hash each row answers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function auth_find_api_keys(p_prefixes text[], p_hashes text[])
    returns table (
      lookup_hash text, id uuid, tenant_id uuid, user_id uuid, company_id uuid, sub_tenant_id uuid,
      kind text, environment text, scopes text[], status text, expires_at timestamptz,
      tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], kyc_completed boolean,
      last_used_at timestamptz, last_used_ip text
    )
    language plpgsql stable set app.caller_kind = 'system'
    as $$
    begin
      return query
      select k.key_hash::text, k.id, k.tenant_id, k.user_id, k.company_id, k.sub_tenant_id, k.kind, k.environment,
             k.scopes, k.status, k.expires_at, t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active,
             coalesce(u.permissions, '{}'),
             exists (
               select 1 from companies c
               where c.tenant_id = k.tenant_id and c.deleted_at is null and c.kyc_status = 'completed'
                 and (k.company_id is null or c.id = k.company_id)
             ),
             k.last_used_at, k.last_used_ip
      from api_keys k
      join unnest(p_prefixes, p_hashes::char(64)[]) as q(prefix, hash)
        on q.prefix = k.key_prefix and q.hash = k.key_hash
      join tenants t on t.id = k.tenant_id
      left join users u on u.id = k.user_id
      where k.key_hash = any(p_hashes::char(64)[]);
    end
    $$;

    create function auth_find_access_tokens(p_hashes text[])
    returns table (
      lookup_hash text, id uuid, tenant_id uuid, user_id uuid, kind text, environment text,
      expires_at timestamptz, revoked_at timestamptz, tenant_kind text, tenant_active boolean,
      kyb_status text, is_partner boolean, user_active boolean, permissions text[],
      last_used_at timestamptz, last_used_ip text
    )
    language plpgsql stable set app.caller_kind = 'system'
    as $$
    begin
      return query
      select a.token_hash::text, a.id, a.tenant_id, a.user_id, a.kind, a.environment, a.expires_at, a.revoked_at,
             t.kind, t.is_active, t.kyb_status, t.is_partner, u.is_active, coalesce(u.permissions, '{}'),
             a.last_used_at, a.last_used_ip
      from access_tokens a
      join tenants t on t.id = a.tenant_id
      left join users u on u.id = a.user_id
      where a.token_hash = any(p_hashes::char(64)[]);
    end
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop function auth_find_api_keys(text[], text[]);
    drop function auth_find_access_tokens(text[]);
  `);
}
