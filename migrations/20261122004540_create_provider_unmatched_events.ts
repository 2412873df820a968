import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Lifecycle events read from a connection's stream for a provider invoice id we do not know yet.
 * A worker killed after the provider took an upload, and before we recorded its id, leaves such a
 * window: a sync then reads the invoice's first events before the restarted worker records the id.
 * They are kept here and applied when the upload is recorded, so the cursor never skips them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table provider_unmatched_events (
      tenant_id uuid not null references tenants (id),
      connection_id uuid not null references provider_connections (id),
      pdp_invoice_id text not null,
      provider_event_id text not null,
      event jsonb not null,
      recorded_at timestamptz not null default now(),
      primary key (connection_id, provider_event_id)
    );
    create index provider_unmatched_events_invoice_idx on provider_unmatched_events (connection_id, pdp_invoice_id);
  `);
  await isolateByTenant(knex, 'provider_unmatched_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table provider_unmatched_events');
}
