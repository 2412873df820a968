import test from 'ava';
import type { Knex } from 'knex';
import { APP_ROLE, createDatabase } from '../../domain/shared/database.js';
import { seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
let app: Knex;

test.before(async () => {
  env = await createTestDeps();
  // Raw SQL as the application role: a plain connection that switches role, nothing else.
  app = createDatabase(env.database.url, { poolMax: 2, role: APP_ROLE });
  const user = await seedUser(env.ownerDb);
  await seedUserKey(env.ownerDb, user);
  await seedPlatformTenant(env.ownerDb);
  await seedPlatformTenant(env.ownerDb);
});
test.after.always(async () => {
  await app?.destroy();
  await env?.close();
});

/** Every table holding tenant data: `tenants` itself and each table with a `tenant_id` column. */
async function tenantTables(db: Knex): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { table_name: string }[] }>(`
    select distinct c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      and (c.column_name = 'tenant_id' or c.table_name = 'tenants')
    order by 1`);
  return rows.map((r) => r.table_name);
}

test('the application role owns nothing and cannot bypass row-level security', async (t) => {
  const { rows } = await env.ownerDb.raw('select rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = ?', [
    APP_ROLE,
  ]);
  t.deepEqual(rows[0], { rolsuper: false, rolbypassrls: false, rolcanlogin: false });
  const owned = await env.ownerDb.raw(
    `select c.relname from pg_class c join pg_roles r on r.oid = c.relowner
     where r.rolname = ? and c.relkind in ('r', 'p')`,
    [APP_ROLE],
  );
  t.deepEqual(owned.rows, []);
  const current = await app.raw('select current_user as who');
  t.is(current.rows[0].who, APP_ROLE);
});

test('every tenant table has row-level security enabled and forced, with a policy', async (t) => {
  const tables = await tenantTables(env.ownerDb);
  t.true(tables.length >= 10, `found ${tables.join(', ')}`);
  for (const table of tables) {
    const { rows } = await env.ownerDb.raw(
      `select c.relrowsecurity, c.relforcerowsecurity,
              (select count(*) from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname) as policies
       from pg_class c where c.relname = ? and c.relnamespace = 'public'::regnamespace`,
      [table],
    );
    t.deepEqual(rows[0], { relrowsecurity: true, relforcerowsecurity: true, policies: 1 }, table);
  }
});

test('raw SQL as the application role without the tenant setting sees no rows at all', async (t) => {
  for (const table of await tenantTables(env.ownerDb)) {
    const owner = await env.ownerDb(table).count({ n: '*' });
    const asApp = await app.raw(`select count(*)::int as n from ${table}`);
    t.is(asApp.rows[0].n, 0, `${table} is empty to the application without app.tenant_id`);
    if (['tenants', 'users', 'api_keys', 'balances', 'access_tokens'].includes(table)) {
      t.true(Number(owner[0].n) > 0, `${table} does hold rows (seeded)`);
    }
  }
});

test("with the setting, one tenant's rows only; writing another tenant's row is refused", async (t) => {
  const a = await seedPlatformTenant(env.ownerDb);
  const b = await seedPlatformTenant(env.ownerDb);
  await app.transaction(async (tx) => {
    await tx.raw("select set_config('app.tenant_id', ?, true)", [a.tenantId]);
    const keys = await tx('api_keys').select('tenant_id');
    t.true(keys.length === 4 && keys.every((k) => k.tenant_id === a.tenantId));
    const tenants = await tx('tenants').select('id');
    t.deepEqual(tenants, [{ id: a.tenantId }]);
    t.is(await tx('api_keys').where({ tenant_id: b.tenantId }).update({ status: 'revoked' }), 0);
  });
  const err = await t.throwsAsync(
    app.transaction(async (tx) => {
      await tx.raw("select set_config('app.tenant_id', ?, true)", [a.tenantId]);
      await tx('sub_tenants').insert({ tenant_id: b.tenantId, environment: 'sandbox', name: 'Intruder' });
    }),
  );
  t.regex(err?.message ?? '', /row-level security/);
  t.is((await env.ownerDb('api_keys').where({ tenant_id: b.tenantId, status: 'revoked' })).length, 0);
});

test("a transaction written for a set of tenants sees and writes theirs only, never a third's", async (t) => {
  const a = await seedPlatformTenant(env.ownerDb);
  const b = await seedPlatformTenant(env.ownerDb);
  const c = await seedPlatformTenant(env.ownerDb);
  const batch = `{${a.tenantId},${b.tenantId}}`;
  await app.transaction(async (tx) => {
    await tx.raw("select set_config('app.tenant_ids', ?, true)", [batch]);
    const tenants = await tx('tenants').select('id');
    t.deepEqual(tenants.map((row) => row.id).sort(), [a.tenantId, b.tenantId].sort());
    const keys = await tx('api_keys').select('tenant_id');
    t.is(keys.length, 8);
    t.false(keys.some((k) => k.tenant_id === c.tenantId));
    await tx('sub_tenants').insert([
      { tenant_id: a.tenantId, environment: 'sandbox', name: 'Of A' },
      { tenant_id: b.tenantId, environment: 'sandbox', name: 'Of B' },
    ]);
    t.is(await tx('api_keys').where({ tenant_id: c.tenantId }).update({ status: 'revoked' }), 0);
  });
  const err = await t.throwsAsync(
    app.transaction(async (tx) => {
      await tx.raw("select set_config('app.tenant_ids', ?, true)", [batch]);
      await tx('sub_tenants').insert({ tenant_id: c.tenantId, environment: 'sandbox', name: 'Intruder' });
    }),
  );
  t.regex(err?.message ?? '', /row-level security/);
  t.deepEqual(
    (await env.ownerDb('sub_tenants').whereIn('tenant_id', [a.tenantId, b.tenantId, c.tenantId]).select('name'))
      .map((row) => row.name)
      .sort(),
    ['Of A', 'Of B'],
  );
  t.is((await env.ownerDb('api_keys').where({ tenant_id: c.tenantId, status: 'revoked' })).length, 0);
});

test('the setting ends with its transaction: the next use of the connection sees nothing', async (t) => {
  const a = await seedPlatformTenant(env.ownerDb);
  const single = createDatabase(env.database.url, { poolMax: 1, role: APP_ROLE });
  try {
    await single.transaction(async (tx) => {
      await tx.raw("select set_config('app.tenant_id', ?, true)", [a.tenantId]);
      t.is((await tx('api_keys').count({ n: '*' }))[0].n, 4);
    });
    t.is((await single.raw('select count(*)::int as n from api_keys')).rows[0].n, 0);
  } finally {
    await single.destroy();
  }
});
