import type { Knex } from 'knex';

/**
 * When a user's e-mail was proven: by the mailed verification link, a Google sign-in, a password
 * reset, or an operator creating the account. Accounts from before this column are verified only
 * where something already proved the address: Google-only accounts (no password, created or
 * claimed by Google) and operator-made admins. Every other existing account starts unverified and
 * asks for a link (POST /api/v1/auth/verify-email/resend) before it can create production keys.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users add column email_verified_at timestamptz;
    update users set email_verified_at = created_at
      where (google_id is not null and password_hash is null) or 'admin access' = any (permissions);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop column email_verified_at');
}
