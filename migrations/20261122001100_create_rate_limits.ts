import type { Knex } from 'knex';

/**
 * Rate-limit counters shared by every web process (rate-limiter-flexible's PostgreSQL store, whose
 * table layout this is). Not tenant data: keys are opaque (`<limit>:<identity>`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    );
    create index rate_limits_expire_idx on rate_limits (expire);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table rate_limits');
}
