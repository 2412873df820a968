import type { Knex } from 'knex';

/** The prepaid production balance of a tenant or a user's workspace. Sandbox is free. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table balances (
      tenant_id uuid primary key references tenants (id),
      amount numeric(14, 2) not null default 0 check (amount >= 0),
      currency char(3) not null default 'EUR',
      auto_reload_enabled boolean not null default false,
      auto_reload_threshold numeric(14, 2),
      auto_reload_amount numeric(14, 2),
      low_balance_alert_threshold numeric(14, 2) not null default 10,
      critical_balance_alert_threshold numeric(14, 2) not null default 2,
      updated_at timestamptz not null default now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table balances');
}
