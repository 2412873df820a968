import { randomUUID } from 'node:crypto';
import test from 'ava';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import {
  type SeededTenant,
  type SeededUser,
  seedPlatformTenant,
  seedUser,
  seedUserKey,
  seedVerifiedCompany,
} from '../helpers/identities.js';
import { createInvoice, randomSiret, SELLER_SIRET } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

const get = (path: string, headers: Record<string, string>) => app.request(path, { headers });
const asKey = (key: string) => ({ 'X-API-Key': key });
const asUser = (user: SeededUser) => ({ Authorization: `Bearer ${user.token}` });
const ids = (list: { data: { id: string }[] }) => list.data.map((invoice) => invoice.id);

async function list(headers: Record<string, string>, query = '', path = '/api/v1/invoices') {
  const res = await get(`${path}${query}`, headers);
  const body = await readJson(res);
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** A platform tenant with money on its production balance. */
async function fundedTenant(): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  return tenant;
}

test.serial('a list reads the lines of its page in one query, whatever the page size (no N+1)', async (t) => {
  const tenant = await fundedTenant();
  for (let i = 0; i < 12; i++) await createInvoice(app.request, tenant.keys.sk_test);
  const headers = asKey(tenant.keys.sk_test);
  await list(headers, '?per_page=1'); // the first use of a key records it (one more write)
  const queriesFor = async (query: string) => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    app.deps.db.on('query', listener);
    try {
      const page = await list(headers, query);
      return { seen, page };
    } finally {
      app.deps.db.removeListener('query', listener);
    }
  };
  const one = await queriesFor('?per_page=1');
  const twelve = await queriesFor('?per_page=12');
  t.is(one.page.data.length, 1);
  t.is(twelve.page.data.length, 12);
  t.true(
    twelve.page.data.every((invoice: { lines: unknown[] }) => invoice.lines.length === 2),
    'every invoice has its lines',
  );
  t.is(twelve.seen.length, one.seen.length, JSON.stringify(twelve.seen));
  t.is(twelve.seen.filter((sql) => sql.includes('invoice_lines')).length, 1);
});

test('GET /v1/invoices/{id}: lines with line_number, flat and nested parties', async (t) => {
  const tenant = await fundedTenant();
  const created = await createInvoice(app.request, tenant.keys.sk_test, { external_id: 'order-7' });
  const res = await get(`/api/v1/invoices/${created.id}`, asKey(tenant.keys.sk_test));
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.deepEqual(body.data, created);
  t.like(body.data, {
    external_id: 'order-7',
    status: 'draft',
    environment: 'sandbox',
    seller_siret: SELLER_SIRET,
    seller: { siret: SELLER_SIRET, name: 'Vendeur SAS' },
    buyer: { name: 'Acheteur SARL', address: { city: 'Lyon' } },
    total_ttc: 1475,
  });
  t.deepEqual(
    body.data.lines.map((l: { line_number: number; total_ht: number }) => [l.line_number, l.total_ht]),
    [
      [1, 1000],
      [2, 250],
    ],
  );
  // The sandbox route set reads the same invoice.
  const sandbox = await readJson(await get(`/api/v1/sandbox/invoices/${created.id}`, asKey(tenant.keys.sk_test)));
  t.deepEqual(sandbox.data, created);
});

test('an id of another tenant, of the other environment, unknown or malformed answers 404', async (t) => {
  const tenant = await fundedTenant();
  const stranger = await fundedTenant();
  const sandboxInvoice = await createInvoice(app.request, tenant.keys.sk_test);
  const liveInvoice = await createInvoice(app.request, tenant.keys.sk_live);
  await expectRefusal(
    t,
    await get(`/api/v1/invoices/${sandboxInvoice.id}`, asKey(stranger.keys.sk_test)),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(
    t,
    await get(`/api/v1/invoices/${sandboxInvoice.id}`, asKey(tenant.keys.sk_live)),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(t, await get(`/api/v1/invoices/${liveInvoice.id}`, asKey(tenant.keys.sk_test)), 404, 'NOT_FOUND');
  await expectRefusal(t, await get(`/api/v1/invoices/${randomUUID()}`, asKey(tenant.keys.sk_test)), 404, 'NOT_FOUND');
  await expectRefusal(t, await get('/api/v1/invoices/not-a-uuid', asKey(tenant.keys.sk_test)), 404, 'NOT_FOUND');
  // The sandbox routes take sandbox keys only, and never show a production invoice.
  await expectRefusal(
    t,
    await get(`/api/v1/sandbox/invoices/${liveInvoice.id}`, asKey(tenant.keys.sk_live)),
    403,
    'API_KEY_ENVIRONMENT_MISMATCH',
  );
  await expectRefusal(
    t,
    await get(`/api/v1/sandbox/invoices/${liveInvoice.id}`, asKey(tenant.keys.sk_test)),
    404,
    'NOT_FOUND',
  );
  const live = await readJson(await get(`/api/v1/invoices/${liveInvoice.id}`, asKey(tenant.keys.sk_live)));
  t.is(live.data.environment, 'production');
});

test('a list is newest first and paginated: per_page default 25, at most 100, meta of the specification', async (t) => {
  const tenant = await fundedTenant();
  const headers = asKey(tenant.keys.sk_test);
  const first = await createInvoice(app.request, tenant.keys.sk_test);
  const second = await createInvoice(app.request, tenant.keys.sk_test);
  const third = await createInvoice(app.request, tenant.keys.sk_test);
  t.deepEqual(ids(await list(headers)), [third.id, second.id, first.id]);

  const page1 = await list(headers, '?per_page=2');
  const page2 = await list(headers, '?per_page=2&page=2');
  t.deepEqual(ids(page1), [third.id, second.id]);
  t.deepEqual(ids(page2), [first.id]);
  t.deepEqual(page1.meta, { current_page: 1, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual(page2.meta, { current_page: 2, last_page: 2, per_page: 2, total: 3 });
  t.deepEqual((await list(headers, '?page=3&per_page=2')).data, []);

  await Promise.all(Array.from({ length: 24 }, () => createInvoice(app.request, tenant.keys.sk_test)));
  const byDefault = await list(headers);
  t.is(byDefault.data.length, 25);
  t.deepEqual(byDefault.meta, { current_page: 1, last_page: 2, per_page: 25, total: 27 });
  const rest = await list(headers, '?page=2');
  t.is(rest.data.length, 2);
  t.is(new Set([...ids(byDefault), ...ids(rest)]).size, 27, 'pages never overlap');

  t.is((await list(headers, '?per_page=100')).data.length, 27);
  await expectInvalid(t, await get('/api/v1/invoices?per_page=101', headers), 'per_page');
  await expectInvalid(t, await get('/api/v1/invoices?page=0', headers), 'page');
});

test('filters: status (validated finds completed), direction, issue dates, and deleted drafts only on request', async (t) => {
  const tenant = await fundedTenant();
  const headers = asKey(tenant.keys.sk_test);
  const make = (overrides = {}) => createInvoice(app.request, tenant.keys.sk_test, overrides);
  const november = await make({ issue_date: '2026-11-05', due_date: '2026-12-05' });
  const october = await make({ issue_date: '2026-10-15', due_date: '2026-11-15' });
  const incoming = await make({ direction: 'incoming', issue_date: '2026-11-10', due_date: '2026-12-10' });
  const completed = await make();
  const validated = await make();
  const deleted = await make();
  const setStatus = (id: string, status: string) => app.ownerDb('invoices').where({ id }).update({ status });
  await setStatus(completed.id, 'completed');
  await setStatus(validated.id, 'validated');
  const del = await app.request(`/api/v1/invoices/${deleted.id}`, { method: 'DELETE', headers });
  t.is(del.status, 200);

  const all = ids(await list(headers));
  t.false(all.includes(deleted.id), 'deleted drafts are left out of lists');
  t.is(all.length, 5);
  t.deepEqual(ids(await list(headers, '?status=deleted')), [deleted.id]);
  t.deepEqual(ids(await list(headers, '?status=validated')).sort(), [completed.id, validated.id].sort());
  t.deepEqual(ids(await list(headers, '?status=completed')), [completed.id]);
  t.deepEqual(ids(await list(headers, '?status=draft')).sort(), [november.id, october.id, incoming.id].sort());
  t.deepEqual(ids(await list(headers, '?direction=incoming')), [incoming.id]);
  t.deepEqual(ids(await list(headers, '?from=2026-11-01&to=2026-11-09')), [november.id]);
  t.deepEqual(ids(await list(headers, '?to=2026-10-31')), [october.id]);
  t.deepEqual(ids(await list(headers, '?from=2026-11-10&to=2026-11-10')), [incoming.id]);
  t.deepEqual(ids(await list(headers, '?direction=incoming&from=2026-11-11')), []);

  await expectInvalid(t, await get('/api/v1/invoices?status=sent', headers), 'status');
  await expectInvalid(t, await get('/api/v1/invoices?from=2026-11-31', headers), 'from');
  await expectInvalid(t, await get('/api/v1/invoices?from=2026-11-10&to=2026-11-01', headers), 'to');

  // A GET by id still shows a deleted draft.
  const shown = await readJson(await get(`/api/v1/invoices/${deleted.id}`, headers));
  t.is(shown.data.status, 'deleted');
});

test('a key reads its own environment only; a dashboard token reads both unless `environment` filters', async (t) => {
  const user = await seedUser(app.ownerDb);
  await seedVerifiedCompany(app.ownerDb, user.tenantId, randomSiret());
  await app.ownerDb('balances').where({ tenant_id: user.tenantId }).update({ amount: '10.00' });
  const testKey = await seedUserKey(app.ownerDb, user, { environment: 'sandbox' });
  const liveKey = await seedUserKey(app.ownerDb, user, { environment: 'production' });
  const sandboxInvoice = await createInvoice(app.request, testKey);
  const liveInvoice = await createInvoice(app.request, liveKey);

  t.deepEqual(ids(await list(asKey(testKey))), [sandboxInvoice.id]);
  t.deepEqual(ids(await list(asKey(liveKey))), [liveInvoice.id]);
  t.deepEqual(ids(await list(asKey(testKey), '?environment=sandbox')), [sandboxInvoice.id]);
  await expectInvalid(t, await get('/api/v1/invoices?environment=production', asKey(testKey)), 'environment');

  t.deepEqual(ids(await list(asUser(user))), [liveInvoice.id, sandboxInvoice.id]);
  t.deepEqual(ids(await list(asUser(user), '?environment=production')), [liveInvoice.id]);
  t.deepEqual(ids(await list(asUser(user), '?environment=sandbox')), [sandboxInvoice.id]);
  for (const invoice of [sandboxInvoice, liveInvoice]) {
    const res = await get(`/api/v1/invoices/${invoice.id}`, asUser(user));
    t.is(res.status, 200);
    t.is((await readJson(res)).data.environment, invoice.environment);
  }
  // The sandbox route set lists the sandbox only.
  t.deepEqual(ids(await list(asKey(testKey), '', '/api/v1/sandbox/invoices')), [sandboxInvoice.id]);
});

test('company_id filters; a key bound to a company sees that company only', async (t) => {
  const user = await seedUser(app.ownerDb);
  const companyId = await seedVerifiedCompany(app.ownerDb, user.tenantId, SELLER_SIRET);
  const key = await seedUserKey(app.ownerDb, user);
  const bound = await seedUserKey(app.ownerDb, user, { companyId });
  const ours = await createInvoice(app.request, key); // the seller's SIRET is the company's
  const other = await createInvoice(app.request, key, { seller_siret: randomSiret() });
  t.is(ours.company_id, companyId);
  t.is(other.company_id, null);

  t.deepEqual(ids(await list(asKey(key))), [other.id, ours.id]);
  t.deepEqual(ids(await list(asKey(key), `?company_id=${companyId}`)), [ours.id]);
  t.deepEqual(ids(await list(asUser(user), `?company_id=${companyId}`)), [ours.id]);
  t.deepEqual(ids(await list(asKey(bound))), [ours.id]);
  t.deepEqual(ids(await list(asKey(bound), `?company_id=${randomUUID()}`)), []);
  t.is((await get(`/api/v1/invoices/${ours.id}`, asKey(bound))).status, 200);
  await expectRefusal(t, await get(`/api/v1/invoices/${other.id}`, asKey(bound)), 404, 'NOT_FOUND');
  await expectInvalid(t, await get('/api/v1/invoices?company_id=42', asKey(key)), 'company_id');
});

test("GET /v1/tenant/sub-tenants/{id}/invoices lists that sub-tenant's invoices; another tenant's sub-tenant is 404", async (t) => {
  const tenant = await fundedTenant();
  const stranger = await fundedTenant();
  const key = tenant.keys.sk_test;
  const subTenant = async (owner: SeededTenant) => {
    const res = await app.request(
      '/api/v1/tenant/sub-tenants',
      postJson({ external_id: `c-${randomUUID()}`, name: 'Client' }, { 'X-Tenant-Key': owner.keys.sk_test }),
    );
    return (await readJson(res)).data.id as string;
  };
  const mine = await subTenant(tenant);
  const theirs = await subTenant(stranger);
  const base = `/api/v1/tenant/sub-tenants/${mine}/invoices`;
  const a = await createInvoice(app.request, key, {}, base);
  const b = await createInvoice(app.request, key, { direction: 'incoming' }, base);
  const direct = await createInvoice(app.request, key, {}, '/api/v1/tenant/invoices');
  t.is(a.sub_tenant_id, mine);

  const headers = { 'X-Tenant-Key': key };
  t.deepEqual(ids(await list(headers, '', base)), [b.id, a.id]);
  t.deepEqual(ids(await list(headers, '?direction=incoming', base)), [b.id]);
  t.deepEqual((await list(headers, '?per_page=1', base)).meta, {
    current_page: 1,
    last_page: 2,
    per_page: 1,
    total: 2,
  });
  // The tenant's own list has every invoice of the tenant, its sub-tenants' included.
  t.deepEqual(ids(await list(asKey(key))), [direct.id, b.id, a.id]);
  await expectRefusal(t, await get(`/api/v1/tenant/sub-tenants/${theirs}/invoices`, headers), 404, 'NOT_FOUND');
  await expectRefusal(
    t,
    await get(`/api/v1/tenant/sub-tenants/${mine}/invoices`, { 'X-Tenant-Key': tenant.keys.sk_live }),
    404,
    'NOT_FOUND',
  );
  await expectRefusal(t, await get(base, { 'X-Tenant-Key': stranger.keys.sk_test }), 404, 'NOT_FOUND');
});

test('reading needs the invoices scope; the sandbox list refuses production keys', async (t) => {
  const user = await seedUser(app.ownerDb);
  const signaturesOnly = await seedUserKey(app.ownerDb, user, { scopes: ['signatures'] });
  await expectRefusal(t, await get('/api/v1/invoices', asKey(signaturesOnly)), 403, 'FORBIDDEN');
  await expectRefusal(t, await get('/api/v1/invoices', {}), 401, 'API_KEY_MISSING');
  const tenant = await fundedTenant();
  await expectRefusal(
    t,
    await get('/api/v1/sandbox/invoices', asKey(tenant.keys.sk_live)),
    403,
    'API_KEY_ENVIRONMENT_MISMATCH',
  );
});
