import type { Knex } from 'knex';

/**
 * When the last password-reset and verification mails of a user were queued: a request claims the
 * next one by a conditional update of this row (at most one a minute), which holds however the
 * requests fall across clock minutes, unlike pg-boss's throttling by time slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users
      add column reset_mail_queued_at timestamptz,
      add column verification_mail_queued_at timestamptz;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column reset_mail_queued_at, drop column verification_mail_queued_at');
}
