import test from 'ava';
import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import type { Caller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

/**
 * The hottest writes of a creation run as named statements (domain/shared/prepared-statements.ts):
 * planned once per connection, still right after a migration adds a column under them, and never
 * named with DATABASE_PREPARED_STATEMENTS=false. One pool connection, so that what the pool
 * prepared is what `pg_prepared_statements` shows.
 */
const callerOf = (tenant: SeededTenant): Caller => ({
  kind: 'tenant',
  tenantId: tenant.tenantId,
  subTenantId: null,
  environment: 'sandbox',
  scopes: ['*'],
  credential: null,
});

const preparedNames = async (env: TestDeps): Promise<string[]> =>
  (
    await env.deps.db.raw<{ rows: { name: string }[] }>('select name from pg_prepared_statements order by name')
  ).rows.map((r) => r.name);

const create = (env: TestDeps, tenant: SeededTenant, number: string) =>
  execute(createInvoice, invoiceBody({ invoice_number: number }), callerOf(tenant), env.deps);

test('creations run their hottest writes as named statements, which survive a column added under them', async (t) => {
  const env = await createTestDeps({ env: { DATABASE_POOL_MAX: '1' } });
  try {
    const tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
    for (let i = 1; i <= 7; i++) await create(env, tenant, `PS-${i}`);
    const names = await preparedNames(env);
    for (const kind of [
      'insert_invoices',
      'pgboss',
      'closed_through',
      'kill_switch_off',
      'insert_audit',
      'insert_events',
    ]) {
      t.true(
        names.some((name) => name.startsWith(`${kind}_`)),
        `${kind} is prepared: ${names.join(', ')}`,
      );
    }
    t.is(new Set(names).size, names.length);

    // a later release's migration, while this process runs on its generic plans
    await env.ownerDb.raw('alter table invoices add column added_by_a_later_release text');
    const after = await create(env, tenant, 'PS-after');
    t.is(after.invoice_number, 'PS-after');
    t.is(Number(after.total_ttc), 1475);
    t.is(Number((await env.ownerDb('invoices').where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n), 8);
  } finally {
    await env.close();
  }
});

test('DATABASE_PREPARED_STATEMENTS=false: nothing is named', async (t) => {
  const env = await createTestDeps({ env: { DATABASE_POOL_MAX: '1', DATABASE_PREPARED_STATEMENTS: 'false' } });
  try {
    const tenant = await seedPlatformTenant(env.ownerDb, { kyb: 'verified' });
    for (let i = 1; i <= 3; i++) await create(env, tenant, `UN-${i}`);
    t.deepEqual(await preparedNames(env), []);
  } finally {
    await env.close();
  }
});
