import type { Knex } from 'knex';
import { BATCH_TENANT_POLICY, SINGLE_TENANT_POLICY } from './support/tenant-isolation.js';

/**
 * A transaction may be written for a set of tenants: group commit writes the creations of several
 * tenants in one transaction (domain/shared/group-commit.ts, docs/decisions/0099). It sets
 * `app.tenant_ids` to those tenants, and no `app.tenant_id`; every tenant policy lets it see and
 * write the rows of those tenants only. A transaction of one tenant, or of the system, is as it was:
 * the new arm is last, so their rows pass on the arms before it.
 *
 * Every policy of the form `column = app_tenant_id() or app_is_system()` gets the arm, whatever the
 * migration that made it; the few other policies (system-only tables, the idempotency records a
 * batch never writes) keep theirs.
 */
const UNIFORM = /^\(\((\w+) = app_tenant_id\(\)\) OR app_is_system\(\)\)$/;
const WITH_BATCH =
  /^\(\((\w+) = app_tenant_id\(\)\) OR app_is_system\(\) OR \(\1 = ANY \(app_batch_tenant_ids\(\)\)\)\)$/;

interface Policy {
  tablename: string;
  policyname: string;
  qual: string;
  with_check: string;
}

async function policies(knex: Knex): Promise<Policy[]> {
  const { rows } = await knex.raw<{ rows: Policy[] }>(
    `select tablename, policyname, qual, with_check from pg_policies where schemaname = current_schema() order by 1, 2`,
  );
  return rows;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function app_batch_tenant_ids() returns uuid[] language sql stable parallel safe
      as $$ select nullif(current_setting('app.tenant_ids', true), '')::uuid[] $$;
  `);
  for (const policy of await policies(knex)) {
    const column = UNIFORM.exec(policy.qual)?.[1];
    if (!column || policy.with_check !== policy.qual) continue;
    const expression = BATCH_TENANT_POLICY(column);
    await knex.raw(`alter policy ?? on ?? using (${expression}) with check (${expression})`, [
      policy.policyname,
      policy.tablename,
    ]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const policy of await policies(knex)) {
    const column = WITH_BATCH.exec(policy.qual)?.[1];
    if (!column) continue;
    const expression = SINGLE_TENANT_POLICY(column);
    await knex.raw(`alter policy ?? on ?? using (${expression}) with check (${expression})`, [
      policy.policyname,
      policy.tablename,
    ]);
  }
  await knex.raw('drop function app_batch_tenant_ids()');
}
