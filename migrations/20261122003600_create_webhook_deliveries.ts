import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * One delivery per (event, endpoint): its id is the `X-Service-Delivery` header, the same on every
 * attempt. The unique pair makes a second fan-out of the same event a no-op. `attempts` counts the
 * recorded attempts; an attempt is recorded only when it follows the last one, so a job run twice
 * (a worker killed mid-call) never counts twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table webhook_deliveries (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      endpoint_id uuid not null references webhook_endpoints (id),
      event_id uuid not null references events (id),
      event_name text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'cancelled')),
      attempts integer not null default 0 check (attempts >= 0),
      max_attempts integer not null check (max_attempts >= 1),
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null,
      unique (event_id, endpoint_id)
    );
    create index webhook_deliveries_endpoint_idx on webhook_deliveries (tenant_id, endpoint_id, created_at desc);
    create index webhook_deliveries_pending_idx on webhook_deliveries (endpoint_id) where status = 'pending';
  `);
  await isolateByTenant(knex, 'webhook_deliveries');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table webhook_deliveries');
}
