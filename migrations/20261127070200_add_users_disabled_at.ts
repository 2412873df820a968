import type { Knex } from 'knex';

/** When an admin disabled the user (null while enabled); the why is in the admin audit log. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users add column disabled_at timestamptz');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column disabled_at');
}
