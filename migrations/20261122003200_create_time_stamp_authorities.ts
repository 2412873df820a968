import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { grantToApp } from './support/tenant-isolation.js';

/**
 * The built-in RFC 3161 authority used when no TSA_URL is configured: a root CA and a TSA
 * certificate (PEM), made once by the first process that needs them, with their private keys
 * sealed under APP_KEY (domain/shared/secret-box.ts). Not tenant data; append-only, so the
 * certificates every stored token chains to are never replaced.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table time_stamp_authorities (
      name text primary key,
      ca_certificate text not null,
      tsa_certificate text not null,
      ca_private_key text not null,
      tsa_private_key text not null,
      policy text not null,
      created_at timestamptz not null
    );
  `);
  await refuseChanges(knex, 'time_stamp_authorities');
  await grantToApp(knex, 'time_stamp_authorities');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table time_stamp_authorities; drop function time_stamp_authorities_refuse_change();');
}
