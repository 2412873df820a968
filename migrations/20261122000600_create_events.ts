import type { Knex } from 'knex';

/** The event outbox: written in the operation's transaction, dispatched to webhooks by a worker. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table events (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      name text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      dispatched_at timestamptz
    );
    create index events_tenant_idx on events (tenant_id, created_at desc);
    create index events_undispatched_idx on events (created_at) where dispatched_at is null;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table events');
}
