import type { Knex } from 'knex';

const KEY_LOOKUP = (companyActive: boolean) => `
    create function auth_find_api_keys(p_prefixes text[], p_hashes text[])
    returns table (
      lookup_hash text, id uuid, tenant_id uuid, user_id uuid, company_id uuid, sub_tenant_id uuid,
      kind text, environment text, scopes text[], status text, expires_at timestamptz,
      tenant_kind text, tenant_active boolean, kyb_status text, is_partner boolean,
      user_active boolean, permissions text[], kyc_completed boolean,${companyActive ? ' company_active boolean,' : ''}
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
             ),${
               companyActive
                 ? `
             k.company_id is null or exists (
               select 1 from companies c where c.id = k.company_id and c.status = 'active'
             ),`
                 : ''
             }
             k.last_used_at, k.last_used_ip
      from api_keys k
      join unnest(p_prefixes, p_hashes::char(64)[]) as q(prefix, hash)
        on q.prefix = k.key_prefix and q.hash = k.key_hash
      join tenants t on t.id = k.tenant_id
      left join users u on u.id = k.user_id
      where k.key_hash = any(p_hashes::char(64)[]);
    end
    $$;`;

/**
 * A key restricted to a company (`api_keys.company_id`) stops working while an admin has disabled
 * that company (`companies.status = 'inactive'`), and works again once it is enabled: the batched
 * key lookup also returns `company_active`, read on every request (nothing caches it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`drop function auth_find_api_keys(text[], text[]); ${KEY_LOOKUP(true)}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`drop function auth_find_api_keys(text[], text[]); ${KEY_LOOKUP(false)}`);
}
