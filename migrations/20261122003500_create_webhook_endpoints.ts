import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Where an owner's events are delivered (spec "Webhook endpoint"). `kind = endpoint`: one of a
 * user's endpoints (/v1/webhooks), of one environment. `kind = tenant_profile`: a tenant's own
 * `webhook_url` (PUT /v1/tenant/me), at most one live per tenant, for every event of both
 * environments. The secret (`whsec_` + 32) and the custom headers are sealed with AES-256-GCM under
 * APP_KEY (domain/shared/secret-box.ts, the row id as context). A deleted endpoint keeps its row,
 * so that its deliveries and their log stay readable.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table webhook_endpoints (
      id uuid primary key,
      tenant_id uuid not null references tenants (id),
      kind text not null default 'endpoint' check (kind in ('endpoint', 'tenant_profile')),
      url text not null,
      description text,
      events text[] not null check (cardinality(events) > 0),
      environment text check (environment in ('sandbox', 'production')),
      secret_encrypted text not null,
      secret_last4 text not null,
      headers_encrypted text,
      header_names text[] not null default '{}',
      timeout_seconds integer not null default 15 check (timeout_seconds between 1 and 15),
      retry_count integer check (retry_count between 0 and 20),
      is_active boolean not null default true,
      disabled_at timestamptz,
      disabled_reason text,
      failure_count integer not null default 0,
      failing_since timestamptz,
      last_triggered_at timestamptz,
      last_success_at timestamptz,
      last_failure_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz,
      check (kind = 'tenant_profile' or environment is not null)
    );
    create index webhook_endpoints_tenant_idx on webhook_endpoints (tenant_id, created_at desc) where deleted_at is null;
    create unique index webhook_endpoints_tenant_profile_unique on webhook_endpoints (tenant_id)
      where kind = 'tenant_profile' and deleted_at is null;
  `);
  await isolateByTenant(knex, 'webhook_endpoints');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table webhook_endpoints');
}
