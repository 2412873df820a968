import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The status history of incoming invoices, append-only: one row on arrival (`received`) and one
 * per decision, with the French lifecycle code the decision sends to the provider (`fr:205`
 * accepted, `fr:210` rejected, `fr:207` disputed, `fr:211` payment sent) and its reason.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table incoming_invoice_events (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      incoming_invoice_id uuid not null references incoming_invoices (id),
      status text not null check (status in ('received', 'accepted', 'rejected', 'disputed', 'paid')),
      status_code text check (status_code ~ '^fr:2[0-9]{2}$'),
      reason_code text,
      reason_text text,
      actor jsonb not null default '{}',
      created_at timestamptz not null default now()
    );
    create index incoming_invoice_events_invoice_idx on incoming_invoice_events (tenant_id, incoming_invoice_id, created_at);
  `);
  await refuseChanges(knex, 'incoming_invoice_events');
  await isolateByTenant(knex, 'incoming_invoice_events');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table incoming_invoice_events;
    drop function incoming_invoice_events_refuse_change();
  `);
}
