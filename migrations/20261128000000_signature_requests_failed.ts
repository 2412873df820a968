import type { Knex } from 'knex';

/**
 * A signature request the provider could not take ends `failed` (docs/decisions/0092): refused at
 * the handover, unreachable for SIGNATURE_SUBMIT_MAX_ATTEMPTS handovers, or reporting ERROR.
 * - `failure_reason`: what the user reads; `failed_at`: when, set exactly with `failed`.
 * - `provider_attempts`: the handovers that met an unreachable provider, counted on the row so
 *   the service, not the queue's retry limit, decides when to give up (as invoices do).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table signature_requests
      add column failure_reason text check (char_length(failure_reason) <= 1000),
      add column failed_at timestamptz,
      add column provider_attempts integer not null default 0 check (provider_attempts >= 0),
      drop constraint signature_requests_status_check,
      add constraint signature_requests_status_check
        check (status in ('pending', 'completed', 'refused', 'expired', 'cancelled', 'failed')),
      add constraint signature_requests_failed_at check ((status = 'failed') = (failed_at is not null));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update signature_requests set status = 'expired' where status = 'failed';
    alter table signature_requests
      drop constraint signature_requests_failed_at,
      drop constraint signature_requests_status_check,
      add constraint signature_requests_status_check
        check (status in ('pending', 'completed', 'refused', 'expired', 'cancelled')),
      drop column provider_attempts,
      drop column failed_at,
      drop column failure_reason;
  `);
}
