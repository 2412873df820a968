import type { Knex } from 'knex';
import { APP_ROLE } from '../domain/shared/database.js';

/**
 * Provider callbacks processed, keyed by (provider, event id): written in the same transaction as
 * the processing, so an event is processed once and a failed processing leaves no row (the
 * provider's retry then processes it). Callbacks belong to no tenant until processed, so only the
 * system (`app.caller_kind = system`) sees the table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table inbound_events (
      provider text not null,
      event_id text not null,
      event_type text,
      payload_sha256 text not null check (payload_sha256 ~ '^[0-9a-f]{64}$'),
      processed_at timestamptz not null,
      primary key (provider, event_id)
    );
    alter table inbound_events enable row level security;
    alter table inbound_events force row level security;
    create policy inbound_events_system_only on inbound_events
      using (app_is_system()) with check (app_is_system());
    grant select, insert, update, delete on inbound_events to ${APP_ROLE};
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table inbound_events');
}
