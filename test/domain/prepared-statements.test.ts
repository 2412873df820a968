import test from 'ava';
import type { PgBoss } from 'pg-boss';
import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import { createBoss } from '../../domain/shared/boss.js';
import type { Caller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { waitFor } from '../helpers/processes.js';
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
      // the kill switch read with the closing lock, then the closed periods
      'chain_open',
      'closed_through',
      // the ledger's pending entries, the audit entries and the events, in one statement
      'insert_invoice_records',
    ]) {
      t.true(
        names.some((name) => name.startsWith(`${kind}_`)),
        `${kind} is prepared: ${names.join(', ')}`,
      );
    }
    t.is(new Set(names).size, names.length);

    // a later release's migration, while this process runs on its generic plans
    for (const table of ['invoices', 'audit_entries', 'events', 'fiscal_pending']) {
      await env.ownerDb.raw(`alter table ${table} add column added_by_a_later_release text`);
    }
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

/** What pg-boss's pool has prepared, over each of its connections (its pool holds up to 4). */
async function bossPreparedNames(boss: PgBoss): Promise<Set<string>> {
  const db = boss.getDb() as { executeSql(text: string): Promise<{ rows: { name: string }[] }> };
  const names = new Set<string>();
  const reads = Array.from({ length: 8 }, () => db.executeSql('select name from pg_prepared_statements'));
  for (const { rows } of await Promise.all(reads)) for (const r of rows) names.add(r.name);
  return names;
}

test("pg-boss's own fetches and completions run named, and one whose job row changed runs unnamed", async (t) => {
  const env = await createTestDeps();
  const boss = createBoss(env.database.url, 'worker', { preparedStatements: true });
  boss.on('error', () => {});
  await boss.start();
  try {
    const queue = 'prepared-probe';
    await boss.createQueue(queue);
    const worked: string[] = [];
    await boss.work(queue, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      worked.push(job.id);
    });
    for (let i = 0; i < 6; i++) await boss.send(queue, {});
    await waitFor(async () => worked.length === 6);
    const names = [...(await bossPreparedNames(boss))];
    t.true(
      names.some((name) => name.startsWith('pgboss_')),
      `pg-boss prepared: ${names.join(', ') || 'nothing'}`,
    );

    // a statement whose result is a row's `*`, prepared, then the row changes under it
    const db = boss.getDb() as { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
    await env.ownerDb.raw('create table boss_prepared_probe (id int primary key)');
    await env.ownerDb.raw('insert into boss_prepared_probe values (1)');
    const probe = () => db.executeSql('select * from boss_prepared_probe where id = $1', [1]);
    for (let i = 0; i < 8; i++) await probe();
    await env.ownerDb.raw('alter table boss_prepared_probe add column added text');
    for (let i = 0; i < 8; i++) t.deepEqual((await probe()).rows, [{ id: 1, added: null }]);
  } finally {
    await boss.stop({ graceful: false, timeout: 2000 });
    await env.close();
  }
});

test('DATABASE_PREPARED_STATEMENTS=false leaves pg-boss unnamed too', async (t) => {
  const env = await createTestDeps();
  const boss = createBoss(env.database.url, 'worker', { preparedStatements: false });
  boss.on('error', () => {});
  await boss.start();
  try {
    await boss.createQueue('prepared-probe');
    for (let i = 0; i < 6; i++) await boss.send('prepared-probe', {});
    t.false([...(await bossPreparedNames(boss))].some((name) => name.startsWith('pgboss_')));
  } finally {
    await boss.stop({ graceful: false, timeout: 2000 });
    await env.close();
  }
});
