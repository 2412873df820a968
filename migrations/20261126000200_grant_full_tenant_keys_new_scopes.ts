import type { Knex } from 'knex';

/** The scopes that name the tenant's own settings (domain/tenants/api-key.ts `TENANT_KEY_SCOPES`). */
const NEW_SCOPES = `'{keys:write,profile:write,webhooks:read,webhooks:write,sub_tenants:write}'::text[]`;
/** What a full tenant key held until now: every scope there was. */
const FORMER_FULL_SCOPES = `'{invoices,signatures,fiscal:read,fiscal:write,fiscal:admin}'::text[]`;

/**
 * Key, profile, webhook and sub-tenant writes now need a named scope. Tenant secret keys that held
 * every scope there was keep doing everything they did: they get the new scopes too. Keys restricted
 * to some scopes stay restricted (they could change these settings only because nothing was checked).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    update api_keys
       set scopes = scopes || array(select s from unnest(${NEW_SCOPES}) as s where s <> all (scopes))
     where user_id is null and kind = 'secret' and scopes @> ${FORMER_FULL_SCOPES}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update api_keys
       set scopes = array(select s from unnest(scopes) with ordinality as u(s, i) where s <> all (${NEW_SCOPES}) order by i)
     where user_id is null and scopes && ${NEW_SCOPES}
  `);
}
