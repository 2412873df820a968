import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

test('entries: chain by chain in sequence order, with their hashes, filtered, paginated, own tenant only', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
  const sub = (
    await readJson(
      await app.request('/api/v1/tenant/sub-tenants', postJson({ external_id: 'c1', name: 'Client' }, headers)),
    )
  ).data;
  for (let i = 0; i < 3; i++)
    await app.request('/api/v1/tenant/invoices', postJson(invoiceBody({ issue_date: `2026-11-0${i + 1}` }), headers));
  for (let i = 0; i < 2; i++)
    await app.request(`/api/v1/tenant/sub-tenants/${sub.id}/invoices`, postJson(invoiceBody(), headers));

  const list = async (query = '') => readJson(await app.request(`/api/v1/tenant/fiscal/entries${query}`, { headers }));
  const all = await list();
  t.true(all.success);
  t.like(all.meta, { total: 5, per_page: 20, current_page: 1, last_page: 1 });
  t.deepEqual(
    all.data.map((e: { sub_tenant_id: string | null; sequence_number: number }) => [
      e.sub_tenant_id,
      e.sequence_number,
    ]),
    [
      [null, 1],
      [null, 2],
      [null, 3],
      [sub.id, 1],
      [sub.id, 2],
    ],
  );
  t.is(all.data[1].previous_hash, all.data[0].chain_hash);
  t.like(all.data[0], {
    entry_type: 'invoice_created',
    entity_type: 'invoice',
    legal_status: 'test',
    environment: 'sandbox',
  });
  t.is((await list(`?sub_tenant_id=${sub.id}`)).meta.total, 2);
  t.is((await list('?date_from=2026-11-02&date_to=2026-11-02')).meta.total, 1);
  t.is((await list('?per_page=2&page=2')).data.length, 2);
  const wrongEnv = await app.request('/api/v1/tenant/fiscal/entries?environment=production', { headers });
  t.is(wrongEnv.status, 422);

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const theirs = await readJson(
    await app.request('/api/v1/tenant/fiscal/entries', { headers: { 'X-Tenant-Key': other.keys.sk_test } }),
  );
  t.is(theirs.meta.total, 0);
  const foreignSub = await app.request(`/api/v1/tenant/fiscal/entries?sub_tenant_id=${sub.id}`, {
    headers: { 'X-Tenant-Key': other.keys.sk_test },
  });
  t.is(foreignSub.status, 404);
});
