import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { setTenantContext } from '../../domain/shared/tenant-context.js';
import { postJson, readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const runFile = promisify(execFile);
const BIN = path.resolve('bin/einvoice.js');
const BASE = '/api/v1/tenant/sub-tenants';

interface CliTenant {
  tenant_id: string;
  secret_keys: { sandbox: string; production: string };
}

let app: TestApp;
let alpha: CliTenant;
let beta: CliTenant;

/** `npx einvoice tenant create`, run as the operator would, against the test app's database. */
async function createTenantWithCli(name: string, email: string): Promise<CliTenant> {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: app.database.url, LOG_LEVEL: 'silent' };
  const args = ['tenant', 'create', '--name', name, '--email', email, '--siret', '73282932000074', '--kyb', 'verified'];
  const { stdout } = await runFile(process.execPath, [BIN, ...args], { env });
  return JSON.parse(stdout);
}

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  alpha = await createTenantWithCli('Alpha Platform', 'ops@alpha.example');
  beta = await createTenantWithCli('Beta Platform', 'ops@beta.example');
});
test.after.always(() => app?.close());

const call = (key: string, suffix: string, init: RequestInit = {}) =>
  app.request(`${BASE}${suffix}`, { ...init, headers: { 'X-Tenant-Key': key, ...(init.headers as object) } });
const create = async (key: string, body: Record<string, unknown>) => {
  const res = await call(key, '', postJson(body));
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await readJson(res)).data;
};
const ids = async (key: string) => (await readJson(await call(key, ''))).data.map((s: { id: string }) => s.id).sort();

async function notFound(t: ExecutionContext, res: Response, what: string) {
  t.is(res.status, 404, what);
  t.is((await readJson(res)).code, 'NOT_FOUND', what);
}

// Serial: it runs before the other tests add sub-tenants, so the lists can be compared exactly.
test.serial('two CLI-created tenants see only their own sub-tenants, per environment', async (t) => {
  t.not(alpha.tenant_id, beta.tenant_id);
  const a1 = await create(alpha.secret_keys.sandbox, { external_id: 'shared-1', name: 'Alpha client 1' });
  const a2 = await create(alpha.secret_keys.sandbox, { external_id: 'alpha-2', name: 'Alpha client 2' });
  const aLive = await create(alpha.secret_keys.production, { external_id: 'shared-1', name: 'Alpha live' });
  // Beta may use the same external_id: no 409, and so no hint that Alpha uses it.
  const b1 = await create(beta.secret_keys.sandbox, { external_id: 'shared-1', name: 'Beta client 1' });

  t.deepEqual(await ids(alpha.secret_keys.sandbox), [a1.id, a2.id].sort());
  t.deepEqual(await ids(alpha.secret_keys.production), [aLive.id]);
  t.deepEqual(await ids(beta.secret_keys.sandbox), [b1.id]);
  t.deepEqual(await ids(beta.secret_keys.production), []);

  const found = await readJson(await call(beta.secret_keys.sandbox, '/by-external-id/shared-1'));
  t.is(found.data.id, b1.id);
  t.is(found.data.tenant_id, beta.tenant_id);
});

test("a tenant gets 404 on every route for the other tenant's sub-tenant and changes nothing", async (t) => {
  const target = await create(alpha.secret_keys.sandbox, { external_id: 'alpha-only', name: 'Alpha private' });
  const key = beta.secret_keys.sandbox;
  await notFound(t, await call(key, `/${target.id}`), 'get');
  await notFound(
    t,
    await call(key, `/${target.id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Taken over' }),
    }),
    'put',
  );
  await notFound(t, await call(key, `/${target.id}`, { method: 'DELETE' }), 'delete');
  await notFound(t, await call(key, '/by-external-id/alpha-only'), 'by-external-id');
  await notFound(t, await call(key, `/${target.id}/stats/overview`), 'stats');
  // Beta's production key, and Alpha's own production key, do not reach a sandbox sub-tenant either.
  await notFound(t, await call(beta.secret_keys.production, `/${target.id}`), 'other tenant, production');
  await notFound(t, await call(alpha.secret_keys.production, `/${target.id}`), 'same tenant, production');

  const row = await app.ownerDb('sub_tenants').where({ id: target.id }).first();
  t.is(row.name, 'Alpha private');
  t.is((await readJson(await call(alpha.secret_keys.sandbox, `/${target.id}`))).data.name, 'Alpha private');
});

test("row-level security hides the other tenant's sub-tenants even from a query that names them", async (t) => {
  const target = await create(alpha.secret_keys.sandbox, { external_id: 'rls-probe', name: 'Alpha RLS' });
  const seen = await app.deps.db.transaction(async (tx) => {
    await setTenantContext(tx, { tenantId: beta.tenant_id, environment: 'sandbox', kind: 'tenant' });
    return tx('sub_tenants').where({ id: target.id });
  });
  t.deepEqual(seen, []);
});
