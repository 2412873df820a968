import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * An invoice created for a sub-tenant without `invoice_number` takes the next number of the
 * sub-tenant's own sequence: consecutive, without gaps, under concurrency and group commit.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

/** A valid tenant body with no invoice number. */
const unnumbered = (overrides: Record<string, unknown> = {}) => {
  const { invoice_number: _, ...body } = invoiceBody(overrides);
  return body;
};
const post = (tenant: SeededTenant, path: string, body: unknown) =>
  app.request(path, postJson(body, { 'X-Tenant-Key': tenant.keys.sk_test }));
const forSub = (tenant: SeededTenant, subTenantId: string, body: unknown) =>
  post(tenant, `/api/v1/tenant/sub-tenants/${subTenantId}/invoices`, body);
const numbersOf = async (tenant: SeededTenant, subTenantId: string) =>
  (
    await app
      .ownerDb('invoices')
      .where({ tenant_id: tenant.tenantId, sub_tenant_id: subTenantId })
      .orderBy('invoice_number')
      .pluck('invoice_number')
  ).sort();
const series = (from: number, to: number, prefix = 'F-') =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${String(from + i).padStart(6, '0')}`);

test('each sub-tenant numbers its own invoices; a number given by hand is kept and skipped', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const a = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const b = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const first = await readJson(await forSub(tenant, a, unnumbered()));
  t.is(first.data.invoice_number, 'F-000001', JSON.stringify(first));
  t.is((await readJson(await forSub(tenant, a, unnumbered()))).data.invoice_number, 'F-000002');
  t.is((await readJson(await forSub(tenant, b, unnumbered()))).data.invoice_number, 'F-000001');
  t.is(
    (await readJson(await forSub(tenant, a, invoiceBody({ invoice_number: 'F-000003' })))).data.invoice_number,
    'F-000003',
  );
  t.is((await readJson(await forSub(tenant, a, unnumbered()))).data.invoice_number, 'F-000004');
  const entry = await app.ownerDb('fiscal_entries').where({ entity_id: first.data.id }).first();
  t.is(JSON.parse(entry.canonical_data).invoice_number, 'F-000001', 'the ledger entry holds the number');

  // no sequence for the tenant's own invoices, nor on the specification's strict body
  for (const res of [
    await post(tenant, '/api/v1/tenant/invoices', unnumbered()),
    await app.request('/api/v1/sandbox/invoices', postJson(unnumbered(), { 'X-API-Key': tenant.keys.sk_test })),
  ]) {
    const body = await readJson(res);
    t.is(res.status, 422, JSON.stringify(body));
    t.deepEqual(Object.keys(body.errors), ['invoice_number']);
  }
  // a refused invoice takes no number
  t.is((await forSub(tenant, a, unnumbered({ total_ttc: 1 }))).status, 422);
  t.is((await readJson(await forSub(tenant, a, unnumbered()))).data.invoice_number, 'F-000005');

  await app
    .ownerDb('tenants')
    .where({ id: tenant.tenantId })
    .update({ settings: { invoice_prefix: 'ACME-' } });
  t.is((await readJson(await forSub(tenant, b, unnumbered()))).data.invoice_number, 'ACME-000002');
});

test('concurrent creations, group-committed, get distinct consecutive numbers with no gap', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const taken = await readJson(await forSub(tenant, sub, unnumbered({ external_id: 'taken' })));
  t.is(taken.data.invoice_number, 'F-000001');
  // 40 good ones, with a few that must fail in the same lanes: a reused external_id (which undoes its
  // batch, whose calls then run alone) and wrong totals
  const bodies = [
    ...Array.from({ length: 40 }, (_, i) => ({ ok: true, body: unnumbered({ external_id: `order-${i}` }) })),
    ...Array.from({ length: 3 }, () => ({ ok: false, body: unnumbered({ external_id: 'taken' }) })),
    ...Array.from({ length: 3 }, () => ({ ok: false, body: unnumbered({ total_ttc: 1 }) })),
  ];
  const answers = await Promise.all(
    bodies.map(async ({ ok, body }) => {
      const res = await forSub(tenant, sub, body);
      return { ok, status: res.status, body: await readJson(res) };
    }),
  );
  for (const a of answers) t.is(a.status, a.ok ? 201 : a.body.code === 'DUPLICATE_EXTERNAL_ID' ? 409 : 422);
  t.deepEqual(await numbersOf(tenant, sub), series(1, 41));
  const given = answers.filter((a) => a.ok).map((a) => a.body.data.invoice_number);
  t.is(new Set(given).size, 40, 'each caller got its own number back');
  const rows = await app.ownerDb('invoices').where({ tenant_id: tenant.tenantId }).select('xmin');
  t.true(new Set(rows.map((r) => r.xmin)).size < 41, 'group commit wrote several invoices per transaction');
  const subTenant = await app.ownerDb('sub_tenants').where({ id: sub }).first();
  t.is(Number(subTenant.invoice_sequence), 41);
});

test('bulk: unnumbered items of a sub-tenant are numbered in their order; refused ones take none', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const sub = await seedSubTenant(app.ownerDb, tenant.tenantId);
  const res = await post(tenant, '/api/v1/tenant/invoices/bulk', {
    invoices: [
      unnumbered({ subTenantId: sub }),
      unnumbered({ subTenantId: sub, seller_siret: '12345678901234' }),
      unnumbered(),
      unnumbered({ subTenantId: sub }),
      unnumbered({ subTenantId: sub }),
    ],
  });
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.like(body.data, { created: 3, failed: 2 });
  t.deepEqual(
    body.data.results.map(
      (r: { status: string; invoice?: { invoice_number: string } }) => r.invoice?.invoice_number ?? r.status,
    ),
    ['F-000001', 'failed', 'failed', 'F-000002', 'F-000003'],
  );
  t.deepEqual(Object.keys(body.data.results[2].error.errors), ['invoice_number']);
  t.deepEqual(await numbersOf(tenant, sub), series(1, 3));
});
