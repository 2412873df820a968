import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The raw lifecycle events of an invoice as the provider logged them (code, label, reason, time),
 * append-only; `provider_event_id` makes a re-read page harmless.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table invoice_lifecycle_events (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      invoice_id uuid not null references invoices (id),
      provider_event_id text not null,
      code text not null,
      label text not null,
      reason text,
      occurred_at timestamptz not null,
      recorded_at timestamptz not null default now(),
      unique (invoice_id, provider_event_id)
    );
    create index invoice_lifecycle_events_invoice_idx on invoice_lifecycle_events (tenant_id, invoice_id, occurred_at);
  `);
  await isolateByTenant(knex, 'invoice_lifecycle_events');
  await refuseChanges(knex, 'invoice_lifecycle_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table invoice_lifecycle_events;
    drop function invoice_lifecycle_events_refuse_change();
  `);
}
