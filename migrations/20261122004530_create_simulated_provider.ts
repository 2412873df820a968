import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The built-in e-invoicing simulator's own state (DECISIONS.md "Providers"): the invoices uploaded
 * to it and their event log, with ids that grow like SuperPDP's. An event whose `visible_at` is
 * still ahead is the simulated network's next step: the event stream shows it once that time has
 * come, which walks an invoice through its lifecycle within seconds.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table simulated_provider_invoices (
      id bigserial primary key,
      tenant_id uuid not null references tenants (id),
      connection_id uuid not null references provider_connections (id),
      direction text not null check (direction in ('in', 'out')),
      external_id text,
      processing_rule text,
      content_type text not null,
      content bytea not null,
      created_at timestamptz not null default now()
    );
    create index simulated_provider_invoices_external_id on simulated_provider_invoices (connection_id, external_id);
    create table simulated_provider_events (
      id bigserial primary key,
      tenant_id uuid not null references tenants (id),
      connection_id uuid not null references provider_connections (id),
      invoice_id bigint not null references simulated_provider_invoices (id),
      status_code text not null,
      status_text text not null,
      reason text,
      visible_at timestamptz not null
    );
    create index simulated_provider_events_stream on simulated_provider_events (connection_id, id);
  `);
  await isolateByTenant(knex, 'simulated_provider_invoices');
  await isolateByTenant(knex, 'simulated_provider_events');
  await knex.raw(`
    grant usage on sequence simulated_provider_invoices_id_seq to ${APP_ROLE};
    grant usage on sequence simulated_provider_events_id_seq to ${APP_ROLE};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table simulated_provider_events; drop table simulated_provider_invoices;');
}
