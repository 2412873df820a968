import type { Knex } from 'knex';

/**
 * Transmission columns of an invoice (spec "Invoice" states, DECISIONS.md "Invoice lifecycle"):
 * the provider's id once uploaded, the connection that carries it, submission and payment times,
 * the failed upload attempts, and a copy of the lifecycle events (invoice_lifecycle_events keeps
 * the raw record) so that every rendering of an invoice shows them without another query. None of them is a fiscal field, so the lock trigger lets them move.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table invoices
      add column pdp_id text,
      add column provider_connection_id uuid references provider_connections (id),
      add column submitted_at timestamptz,
      add column transmission_attempts integer not null default 0,
      add column payment_sent_at timestamptz,
      add column paid_at timestamptz,
      add column payment_id uuid,
      add column lifecycle_events jsonb not null default '[]' check (jsonb_typeof(lifecycle_events) = 'array');
    create unique index invoices_pdp_id_unique on invoices (provider_connection_id, pdp_id) where pdp_id is not null;
    create index invoices_pdp_id_idx on invoices (tenant_id, pdp_id) where pdp_id is not null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table invoices drop column pdp_id, drop column provider_connection_id, drop column submitted_at,
      drop column transmission_attempts, drop column payment_sent_at, drop column paid_at, drop column payment_id, drop column lifecycle_events;
  `);
}
