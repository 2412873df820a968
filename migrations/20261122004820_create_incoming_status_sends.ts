import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Lifecycle statuses to send back to the provider about incoming invoices, one per decision event
 * of a provider-sourced invoice: written with the decision (same transaction), sent by the
 * `send-incoming-status` job outside it. `sent_at` set means done: a retried job sends nothing twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table incoming_status_sends (
      event_id uuid primary key references incoming_invoice_events (id),
      tenant_id uuid not null references tenants (id),
      incoming_invoice_id uuid not null references incoming_invoices (id),
      status_code text not null check (status_code ~ '^fr:2[0-9]{2}$'),
      attempts integer not null default 0,
      last_error text,
      provider_event_id text,
      sent_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index incoming_status_sends_invoice_idx on incoming_status_sends (tenant_id, incoming_invoice_id);
  `);
  await isolateByTenant(knex, 'incoming_status_sends');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table incoming_status_sends');
}
