import type { Knex } from 'knex';

/**
 * Google sign-in looks a user up by Google's subject id before the tenant is known: one more
 * cross-tenant read in the style of the `auth_*` functions (20261122001200_isolate_tenants.ts),
 * by an exact id, with `app.caller_kind` raised to `system` for the function only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function auth_find_user_by_google_id(p_google_id text)
    returns table (id uuid, tenant_id uuid, is_active boolean, email text)
    language sql stable set app.caller_kind = 'system'
    as $$ select id, tenant_id, is_active, email from users where google_id = p_google_id $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function auth_find_user_by_google_id(text)');
}
