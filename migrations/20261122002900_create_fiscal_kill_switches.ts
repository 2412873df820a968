import type { Knex } from 'knex';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * The fiscal kill switch of a tenant in one environment (spec "Fiscal kill switch"): while active,
 * invoice and credit-note creation is refused. One row per (tenant, environment), made on first
 * activation; every change is also appended to the audit trail (entity `fiscal_kill_switch`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_kill_switches (
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      active boolean not null default false,
      reason text,
      activated_at timestamptz,
      activated_by jsonb,
      deactivated_at timestamptz,
      deactivated_by jsonb,
      updated_at timestamptz not null,
      primary key (tenant_id, environment)
    );
    alter table audit_entries drop constraint audit_entries_entity_type_check;
    alter table audit_entries add constraint audit_entries_entity_type_check
      check (entity_type in ('invoice', 'credit_note', 'signature', 'fiscal_kill_switch'));
  `);
  await isolateByTenant(knex, 'fiscal_kill_switches');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table fiscal_kill_switches;
    alter table audit_entries drop constraint audit_entries_entity_type_check;
    alter table audit_entries add constraint audit_entries_entity_type_check
      check (entity_type in ('invoice', 'credit_note', 'signature'));
  `);
}
