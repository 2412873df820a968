import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * Generated credit-note numbers, `AV-YYYY-NNNN`: one counter per owner (tenant, environment,
 * sub-tenant or none) and year of issue. The counter row is locked by the creation that takes a
 * number, so two creations never get the same one; a rolled-back creation gives its number back.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table credit_note_sequences (
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      sub_tenant_key uuid not null,
      year integer not null check (year between 1900 and 9999),
      last_number integer not null check (last_number >= 0),
      primary key (tenant_id, environment, sub_tenant_key, year)
    );
  `);
  await isolateByTenant(knex, 'credit_note_sequences');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table credit_note_sequences');
}
