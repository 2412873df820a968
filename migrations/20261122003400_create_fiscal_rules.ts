import type { Knex } from 'knex';
import { RULE_KEY_PATTERN } from '../domain/ledger/index.js';
import { refuseChanges } from './support/append-only.js';
import { isolateByTenant } from './support/tenant-isolation.js';

/**
 * A tenant's versions of its fiscal rules, per environment. History is append-only: a change is a
 * new version (never an edit), and each insert must take the next version of its key, after the
 * built-in version 1 for a key of fiscal_rule_defaults. The version in force on a date is the one
 * with the latest `effective_from` on or before it (the highest version on a tie).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_rules (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id),
      environment text not null check (environment in ('sandbox', 'production')),
      key text not null check (key ~ '${RULE_KEY_PATTERN}'),
      version integer not null check (version >= 1),
      value jsonb not null,
      description text not null check (length(description) between 1 and 1000),
      effective_from date not null,
      created_at timestamptz not null,
      created_by jsonb not null,
      constraint fiscal_rules_version_unique unique (tenant_id, environment, key, version)
    );

    create function fiscal_rules_check_version() returns trigger language plpgsql as $$
    declare
      last integer;
    begin
      select coalesce(max(r.version), (select d.version from fiscal_rule_defaults d where d.key = new.key), 0)
        into last
      from fiscal_rules r
      where r.tenant_id = new.tenant_id and r.environment = new.environment and r.key = new.key;
      if new.version <> last + 1 then
        raise exception 'fiscal_rules: version % of % breaks its history; the next version is %',
          new.version, new.key, last + 1
          using errcode = 'integrity_constraint_violation';
      end if;
      return new;
    end $$;
    create trigger fiscal_rules_version before insert on fiscal_rules
      for each row execute function fiscal_rules_check_version();
  `);
  await refuseChanges(knex, 'fiscal_rules');
  await isolateByTenant(knex, 'fiscal_rules');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop table fiscal_rules;
    drop function fiscal_rules_check_version();
    drop function fiscal_rules_refuse_change();
  `);
}
