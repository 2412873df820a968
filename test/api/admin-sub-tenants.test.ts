import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { expectInvalid as invalid, expectRefusal as refusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededUser, seedPlatformTenant, seedSubTenant, seedUser } from '../helpers/identities.js';
import { invoiceBody, randomSiret } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The admin's sub-tenant routes (spec "Admin", sub-tenants, cookie auth): `/api/admin/sub-tenants`
 * without a version segment, with the dashboard's cookie session (CSRF on changes) or bearer token.
 */
let app: TestApp;
let admin: SeededUser;
let cookie: Record<string, string>;
const CSRF = 'admin-sub-tenants-csrf';

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  admin = await seedUser(app.ownerDb, { admin: true });
  const session = await issueAccessToken(app.ownerDb, {
    tenantId: admin.tenantId,
    userId: admin.userId,
    kind: 'session',
    now: new Date(),
  });
  cookie = { Cookie: `einvoice_session=${session.token}; XSRF-TOKEN=${CSRF}`, 'X-XSRF-TOKEN': CSRF };
});
test.after.always(() => app?.close());

const BASE = '/api/admin/sub-tenants';
const get = (path: string, headers: Record<string, string> = cookie) => app.request(`${BASE}${path}`, { headers });
const remove = (path: string, headers: Record<string, string> = cookie) =>
  app.request(`${BASE}${path}`, { method: 'DELETE', headers });
const ok = async (t: ExecutionContext, res: Response) => {
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  return body;
};
/** A platform tenant named uniquely, so that searches find it alone. */
async function tenantNamed(name: string) {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app
    .ownerDb('tenants')
    .where({ id: tenant.tenantId })
    .update({ name, legal_name: `${name} SAS`, billing_email: `billing@${name}.example` });
  return tenant;
}
async function companyOf(tenantId: string, subTenantId: string): Promise<string> {
  const [row] = await app
    .ownerDb('companies')
    .insert({
      tenant_id: tenantId,
      sub_tenant_id: subTenantId,
      name: 'Client SARL',
      siret: randomSiret(),
      address_line1: '1 rue de la Paix',
      postal_code: '75002',
      city: 'Paris',
    })
    .returning<{ id: string }[]>('id');
  return row.id;
}

test('list: tenants with their sub-tenants, search, onboarding_status and pagination', async (t) => {
  const name = `acme${randomUUID().slice(0, 8)}`;
  const tenant = await tenantNamed(name);
  const pending = await seedSubTenant(app.ownerDb, tenant.tenantId, { name: 'Pending client' });
  const done = await seedSubTenant(app.ownerDb, tenant.tenantId, { name: 'Done client', environment: 'production' });
  await app.ownerDb('sub_tenants').where({ id: done }).update({ onboarding_status: 'completed' });

  const listed = await ok(t, await get(`?search=${name}`));
  t.deepEqual(listed.meta, { current_page: 1, last_page: 1, per_page: 20, total: 1 });
  const [row] = listed.data;
  t.like(row, {
    id: tenant.tenantId,
    name,
    legal_name: `${name} SAS`,
    siret: '73282932000074',
    billing_email: `billing@${name}.example`,
    kyb_status: 'verified',
    sub_tenants_count: 2,
  });
  t.deepEqual(
    row.sub_tenants.map((s: { id: string; environment: string }) => [s.id, s.environment]),
    [
      [done, 'production'],
      [pending, 'sandbox'],
    ],
  );

  const completed = await ok(t, await get(`?search=${name}&onboarding_status=completed`));
  t.is(completed.meta.total, 1);
  t.is(completed.data[0].sub_tenants_count, 1);
  t.is(completed.data[0].sub_tenants[0].id, done);
  t.is((await ok(t, await get(`?search=${name}&onboarding_status=in_progress`))).meta.total, 0);

  // A sub-tenant's name finds its tenant, with that sub-tenant only.
  const bySubTenant = await ok(t, await get(`?search=${encodeURIComponent(`Done client`)}&per_page=100`));
  const found = bySubTenant.data.find((tenantRow: { id: string }) => tenantRow.id === tenant.tenantId);
  t.deepEqual(
    found.sub_tenants.map((s: { id: string }) => s.id),
    [done],
  );

  const paged = await ok(t, await get('?per_page=1&page=2'));
  t.is(paged.meta.per_page, 1);
  t.is(paged.data.length, 1);
  await invalid(t, await get('?per_page=101'), 'per_page');
  await invalid(t, await get('?onboarding_status=gone'), 'onboarding_status');
});

test('status-options: the onboarding stages with their labels', async (t) => {
  t.deepEqual(await ok(t, await get('/status-options')), {
    data: [
      { value: 'pending', label: 'Pending' },
      { value: 'in_progress', label: 'In progress' },
      { value: 'completed', label: 'Completed' },
    ],
  });
});

test('detail: the sub-tenant of any tenant, its tenant and its figures; 404 otherwise', async (t) => {
  const tenant = await tenantNamed(`detail${randomUUID().slice(0, 8)}`);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  await companyOf(tenant.tenantId, sub);
  const invoice = await app.request(
    `/api/v1/tenant/sub-tenants/${sub}/invoices`,
    postJson(invoiceBody(), { 'X-API-Key': tenant.keys.sk_test }),
  );
  t.is(invoice.status, 201);

  const { data } = await ok(t, await get(`/${sub}`, { Authorization: `Bearer ${admin.token}` }));
  t.like(data.sub_tenant, { id: sub, tenant_id: tenant.tenantId, environment: 'sandbox' });
  t.like(data.tenant, { id: tenant.tenantId, kyb_status: 'verified' });
  t.deepEqual(data.stats, { companies_count: 1, invoices_count: 1, credit_notes_count: 0 });
  await refusal(t, await get(`/${randomUUID()}`), 404, 'NOT_FOUND');
});

test('a user without the permission is 403, a key or no credential 401; a cookie change needs CSRF', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const user = await seedUser(app.ownerDb);
  await refusal(t, await get('', { Authorization: `Bearer ${user.token}` }), 403, 'FORBIDDEN');
  await refusal(t, await remove(`/${sub}`, { Authorization: `Bearer ${user.token}` }), 403, 'FORBIDDEN');
  const credentials: Record<string, string>[] = [{ 'X-API-Key': tenant.keys.sk_test }, {}];
  for (const headers of credentials) {
    const res = await get('', headers);
    t.is(res.status, 401);
    await res.arrayBuffer();
  }
  const withoutCsrf = await remove(`/${sub}`, { Cookie: cookie.Cookie });
  t.is(withoutCsrf.status, 403);
  await withoutCsrf.arrayBuffer();
  t.truthy(await app.ownerDb('sub_tenants').where({ id: sub }).first(), 'nothing deleted');
});

test('delete: refused with companies unless cascade, which deletes them and revokes their keys', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const companies = [await companyOf(tenant.tenantId, sub), await companyOf(tenant.tenantId, sub)];
  // A key bound to the sub-tenant, and one restricted to one of its companies.
  const subKey = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'sub',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
    subTenantId: sub,
  });
  const companyKey = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'company',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
    companyId: companies[0],
  });

  const refused = await refusal(t, await remove(`/${sub}`), 422, 'SUB_TENANT_HAS_COMPANIES');
  t.is(refused.companies_count, 2);
  await refusal(t, await remove(`/${sub}?cascade=false`), 422, 'SUB_TENANT_HAS_COMPANIES');
  t.truthy(await app.ownerDb('sub_tenants').where({ id: sub }).first());

  const deleted = await ok(t, await remove(`/${sub}?cascade=true`));
  t.deepEqual(Object.keys(deleted).sort(), ['companies_deleted', 'message']);
  t.is(deleted.companies_deleted, 2);
  t.regex(deleted.message, /2 companies/);
  t.is(await app.ownerDb('sub_tenants').where({ id: sub }).first(), undefined);
  const rows = await app.ownerDb('companies').whereIn('id', companies);
  t.true(rows.every((row) => row.deleted_at !== null && row.sub_tenant_id === null));
  const keys = await app.ownerDb('api_keys').whereIn('id', [subKey.id, companyKey.id]);
  t.true(keys.every((key) => key.status === 'revoked'));

  const [audit] = await app.ownerDb('admin_audit_log').where({ target_id: sub });
  t.like(audit, { action: 'sub_tenant.deleted', target_type: 'sub_tenant', admin_user_id: admin.userId });
  t.like(audit.details, { cascade: true, companies_deleted: 2, keys_revoked: 2 });
  await refusal(t, await remove(`/${sub}`), 404, 'NOT_FOUND');
});

test('delete: a sub-tenant without companies goes without cascade; with fiscal entries it never goes', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const empty = await seedSubTenant(app.ownerDb, tenant.tenantId);
  t.deepEqual(await ok(t, await remove(`/${empty}`)), { message: 'Sub-tenant deleted.', companies_deleted: 0 });

  const invoiced = await seedSubTenant(app.ownerDb, tenant.tenantId);
  await companyOf(tenant.tenantId, invoiced);
  const invoice = await app.request(
    `/api/v1/tenant/sub-tenants/${invoiced}/invoices`,
    postJson(invoiceBody(), { 'X-API-Key': tenant.keys.sk_test }),
  );
  t.is(invoice.status, 201);
  for (const query of ['', '?cascade=true']) {
    const refused = await refusal(t, await remove(`/${invoiced}${query}`), 422, 'SUB_TENANT_HAS_FISCAL_ENTRIES');
    t.is(refused.fiscal_entries_count, 1);
  }
  t.truthy(await app.ownerDb('sub_tenants').where({ id: invoiced }).first());
  t.is(
    (await app.ownerDb('companies').where({ sub_tenant_id: invoiced }).whereNull('deleted_at')).length,
    1,
    'its company is kept',
  );
  t.deepEqual(await app.ownerDb('admin_audit_log').where({ target_id: invoiced }), []);
});
