import type { Knex } from 'knex';

/**
 * A tenant's `webhook_url` (PUT /v1/tenant/me) becomes one endpoint per environment, set with a key
 * of that environment: a sandbox key no longer steers where production events go, nor reads or
 * regenerates production's secret. Today's single endpoint was set for both environments; it keeps
 * serving production, where its secret and its receiver's history matter, and sandbox starts with an
 * empty slot. Sandbox deliveries still queued for it are cancelled: they are not production's to
 * receive. Every endpoint now has an environment, and a tenant at most one live URL per environment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    update webhook_endpoints set environment = 'production' where kind = 'tenant_profile' and environment is null;
    update webhook_deliveries as d
       set status = 'cancelled', completed_at = now(), next_attempt_at = null
      from webhook_endpoints as e
     where e.id = d.endpoint_id and e.kind = 'tenant_profile' and d.environment = 'sandbox' and d.status = 'pending';
    alter table webhook_endpoints
      alter column environment set not null,
      drop constraint webhook_endpoints_check;
    drop index webhook_endpoints_tenant_profile_unique;
    create unique index webhook_endpoints_tenant_profile_unique on webhook_endpoints (tenant_id, environment)
      where kind = 'tenant_profile' and deleted_at is null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update webhook_endpoints set deleted_at = now(), is_active = false
     where kind = 'tenant_profile' and environment = 'sandbox' and deleted_at is null;
    drop index webhook_endpoints_tenant_profile_unique;
    create unique index webhook_endpoints_tenant_profile_unique on webhook_endpoints (tenant_id)
      where kind = 'tenant_profile' and deleted_at is null;
    alter table webhook_endpoints
      alter column environment drop not null,
      add constraint webhook_endpoints_check check (kind = 'tenant_profile' or environment is not null);
    update webhook_endpoints set environment = null where kind = 'tenant_profile';
  `);
}
