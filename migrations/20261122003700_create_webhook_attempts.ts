import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Every delivery attempt as it happened (GET /v1/webhooks/{id}/logs): status, response time, a
 * bounded excerpt of the response body, the error. Test calls (POST /v1/webhooks/{id}/test) are
 * logged too, without a delivery. A log, so append-only; (delivery, attempt) is recorded once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table webhook_attempts (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      endpoint_id uuid not null references webhook_endpoints (id),
      delivery_id uuid references webhook_deliveries (id),
      event_id uuid,
      event_name text not null,
      attempt integer not null check (attempt >= 1),
      is_test boolean not null default false,
      url text not null,
      success boolean not null,
      response_status integer,
      response_time_ms integer not null check (response_time_ms >= 0),
      response_body text,
      error_message text,
      next_attempt_at timestamptz,
      attempted_at timestamptz not null,
      created_at timestamptz not null default now(),
      check (is_test = (delivery_id is null)),
      unique (delivery_id, attempt)
    );
    create index webhook_attempts_endpoint_idx on webhook_attempts (tenant_id, endpoint_id, attempted_at desc);
  `);
  await refuseChanges(knex, 'webhook_attempts');
  await isolateByTenant(knex, 'webhook_attempts');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table webhook_attempts; drop function webhook_attempts_refuse_change();');
}
