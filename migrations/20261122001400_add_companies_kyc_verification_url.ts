import type { Knex } from 'knex';

/**
 * The verification URL of the pending KYC, if the provider gave one: starting KYC again while it
 * is pending answers with the same verification instead of asking the provider twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table companies add column kyc_verification_url text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table companies drop column kyc_verification_url');
}
