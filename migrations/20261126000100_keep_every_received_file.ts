import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Whatever a provider hands over is kept, so that one bad item never blocks a stream:
 * - an empty file from a supplier's inbox is stored (with its parse error) like any unreadable one,
 *   so `byte_size` may be 0;
 * - a lifecycle event that cannot be applied (a date that is none, a text PostgreSQL refuses) is
 *   kept in `provider_event_errors` as the provider sent it (JSON text), with why, and the event
 *   stream's cursor moves past it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table incoming_invoices
      drop constraint incoming_invoices_byte_size_check,
      add constraint incoming_invoices_byte_size_check check (byte_size >= 0);
    create table provider_event_errors (
      tenant_id uuid not null references tenants (id),
      connection_id uuid not null references provider_connections (id),
      provider_event_id text not null,
      event text not null,
      error text not null,
      recorded_at timestamptz not null default now(),
      primary key (connection_id, provider_event_id)
    );
  `);
  await isolateByTenant(knex, 'provider_event_errors');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table provider_event_errors;
    delete from incoming_invoices where byte_size = 0;
    alter table incoming_invoices
      drop constraint incoming_invoices_byte_size_check,
      add constraint incoming_invoices_byte_size_check check (byte_size > 0);
  `);
}
