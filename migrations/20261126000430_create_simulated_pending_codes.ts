import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Sandbox `simulate` calls made on a submitted invoice whose upload is still queued: the web process
 * records the code here, and the worker that records the upload applies them, in order, in the
 * same transaction that sets `pdp_id` (then deletes them). Web and worker processes share only the
 * database, so the request never waits for a worker.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table simulated_pending_codes (
      id bigserial primary key,
      tenant_id uuid not null references tenants (id),
      invoice_id uuid not null references invoices (id),
      status_code text not null,
      reason text,
      requested_at timestamptz not null
    );
    create index simulated_pending_codes_invoice on simulated_pending_codes (invoice_id, id);
  `);
  await isolateByTenant(knex, 'simulated_pending_codes');
  await knex.raw(`grant usage on sequence simulated_pending_codes_id_seq to ${APP_ROLE}`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table simulated_pending_codes');
}
