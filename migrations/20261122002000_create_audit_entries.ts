import type { Knex } from 'knex';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The audit trail of invoices, credit notes and signature requests (spec "Invoice audit-trail
 * entry"): one hash chain per entity. `entry_hash` = SHA-256(previous_hash || SHA-256(canonical_data)),
 * where `canonical_data` is the RFC 8785 JSON of the entry's fields, stored as hashed. The first
 * entry's `previous_hash` is 64 zeros. Append-only, enforced here for every role.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table audit_entries (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      entity_type text not null check (entity_type in ('invoice', 'credit_note', 'signature')),
      entity_id uuid not null,
      sequence_number integer not null check (sequence_number >= 1),
      action text not null,
      details jsonb not null default '{}',
      actor_ip text,
      actor jsonb not null default '{}',
      canonical_data text not null,
      previous_hash char(64) not null check (previous_hash ~ '^[0-9a-f]{64}$'),
      entry_hash char(64) not null check (entry_hash ~ '^[0-9a-f]{64}$'),
      created_at timestamptz not null default now(),
      unique (entity_type, entity_id, sequence_number)
    );
    create index audit_entries_tenant_idx on audit_entries (tenant_id, created_at);
  `);
  await refuseChanges(knex, 'audit_entries');
  await isolateByTenant(knex, 'audit_entries');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table audit_entries; drop function audit_entries_refuse_change();');
}
